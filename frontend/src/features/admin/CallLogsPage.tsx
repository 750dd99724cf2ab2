/** Admin Call Logs (spec sections 2, 8, 9): server-side search, sort and paging over every call,
 * 10 per page, newest first; the call id shortened (full on hover, copied on click); transcript
 * as chat bubbles; play inline and download. */
import { placedFrom } from '@/components/calls/kinds'
import { useQuery } from '@tanstack/react-query'
import { ArrowDown, ArrowUp, ArrowUpDown, Download, ExternalLink, FileText, Play } from 'lucide-react'
import { Link } from 'react-router'
import { useCallback, useEffect, useState } from 'react'
import { Pager } from '@/components/Pager'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Modal } from '@/components/Modal'
import { RecordingPlayer } from '@/components/calls/RecordingPlayer'
import { StatusBadge } from '@/components/StatusBadge'
import { CallSummary } from '@/components/calls/CallSummary'
import { TranscriptView } from '@/components/calls/TranscriptView'
import { TurnLatencyTable } from '@/components/calls/TurnLatencies'
import { saveRecording } from '@/components/calls/recording'
import { useOneAudioAtATime } from '@/components/calls/useOneAudioAtATime'
import { useTranscript } from '@/components/calls/useTranscript'
import { messageOf } from '@/lib/api'
import { cn } from '@/lib/cn'
import { formatCurrency, formatDateTime } from '@/lib/format'
import { notify } from '@/lib/toast'
import { callsQuery, CALL_LOGS_PAGE_SIZE, type AdminCall } from './api'
import { PageHeader, SearchBox, TableState, TD as TD_BASE, TH as TH_BASE } from '@/components/kit'

/** Tighter cells than the other admin tables: nine columns fit a 1280 px screen. */
const TH = cn(TH_BASE, 'whitespace-nowrap px-2.5')
const TD = cn(TD_BASE, 'px-2.5')
import { formatLength, nextSort, shortId } from './rules'

const COLUMNS: { key: string | null; label: string }[] = [
  { key: 'call_id', label: 'Call ID' },
  { key: 'user', label: 'User' },
  { key: 'from', label: 'From' },
  { key: 'to', label: 'To' },
  { key: 'call_length', label: 'Duration' },
  { key: 'created_at', label: 'Date' },
  { key: 'status', label: 'Status' },
  { key: 'cost', label: 'Cost' },
  { key: null, label: 'Actions' },
]

export function AdminCallLogsPage() {
  const [q, setQ] = useState('')
  const [sort, setSort] = useState('-created_at')
  const [page, setPage] = useState(1)
  const [playing, setPlaying] = useState<string | null>(null)
  const transcript = useTranscript((error) => `Failed to fetch transcript: ${messageOf(error, 'Failed to fetch transcript')}`)
  const calls = useQuery(callsQuery(q, sort, page))
  const rows = calls.data?.calls ?? []
  useOneAudioAtATime()

  useEffect(() => {
    if (calls.isError) notify.error('Failed to load call logs')
  }, [calls.isError])

  const onSearch = useCallback((text: string) => {
    setQ(text)
    setPage(1)
  }, [])

  const sortBy = (key: string) => {
    setSort((current) => nextSort(current, key))
    setPage(1)
  }

  const copy = async (id: string) => {
    if (!id) return notify.error('No Call ID available to copy')
    try {
      await navigator.clipboard.writeText(id)
      notify.success('Call ID copied to clipboard')
    } catch (error) {
      notify.error(`Failed to copy Call ID: ${messageOf(error, 'clipboard unavailable')}`)
    }
  }

  const download = (id: string) => saveRecording(id, (error) => `Failed to download recording: ${messageOf(error, 'Failed to download recording')}`)

  const play = (id: string) => {
    if (!id) return notify.error('Invalid call ID')
    setPlaying(id)
  }

  return (
    <div className="space-y-6">
      <PageHeader title="Call Logs" subtitle="Every call on the platform." />
      <SearchBox placeholder="Search by user, from, to, status, or call ID..." onSearch={onSearch} />
      <Card className="overflow-hidden">
        <div className="overflow-x-auto">
          <table className="w-full min-w-[900px]" data-testid="admin-calls">
            <SortHeader sort={sort} onSort={sortBy} />
            <tbody className="divide-y divide-slate-100">
              <TableState columns={COLUMNS.length} rows={CALL_LOGS_PAGE_SIZE} loading={calls.isPending} error={calls.isError ? 'Failed to load call logs' : null} empty="No call logs found." hasRows={rows.length > 0} />
              {!calls.isPending &&
                !calls.isError &&
                rows.map((call) => (
                  <AdminCallRow
                    key={call.call_id}
                    call={call}
                    playing={playing === call.call_id}
                    loadingTranscript={transcript.loadingId === call.call_id}
                    onCopy={() => copy(call.call_id)}
                    onTranscript={() => transcript.open(call.call_id)}
                    onDownload={() => download(call.call_id)}
                    onPlay={() => play(call.call_id)}
                  />
                ))}
            </tbody>
          </table>
        </div>
        <Pager page={page} lastPage={calls.data?.pagination.last_page ?? 1} onPage={setPage} busy={calls.isFetching} />
      </Card>
      <Modal open={transcript.transcript !== null} onOpenChange={(open) => !open && transcript.close()} title="Call Transcript">
        {transcript.transcript && <CallSummary call={transcript.transcript.call} onAnalysed={transcript.analysed} />}
        <TranscriptView lines={transcript.transcript?.lines} answeredBy={transcript.transcript?.call.answered_by} />
        {transcript.transcript && <TurnLatencyTable turns={transcript.transcript.call.latencies} className="mt-6 border-t border-slate-100 pt-4" />}
      </Modal>
    </div>
  )
}

/** The columns' titles; a sortable one is a button that sorts by it (again: the other way). */
function SortHeader({ sort, onSort }: { sort: string; onSort: (key: string) => void }) {
  return (
    <thead className="bg-slate-50">
      <tr>
        {COLUMNS.map(({ key, label }) => {
          const active = key !== null && sort.replace(/^-/, '') === key
          const Arrow = !active ? ArrowUpDown : sort.startsWith('-') ? ArrowDown : ArrowUp
          return (
            <th key={label} scope="col" className={TH} aria-sort={active ? (sort.startsWith('-') ? 'descending' : 'ascending') : undefined}>
              {key ? (
                <button type="button" onClick={() => onSort(key)} className="inline-flex items-center gap-1 uppercase hover:text-slate-900">
                  {label}
                  <Arrow className={active ? 'h-3.5 w-3.5 text-indigo-600' : 'h-3.5 w-3.5 opacity-40'} aria-hidden />
                </button>
              ) : (
                label
              )}
            </th>
          )
        })}
      </tr>
    </thead>
  )
}

const who = (call: AdminCall) => call.user?.name ?? (call.kind === 'test' ? 'Test call' : 'Deleted user')

/** One call: its ID (a click copies it), who placed it, numbers, length, date, status, cost and
 * the ways to its page, transcript and recording. */
function AdminCallRow({ call, playing, loadingTranscript, onCopy, onTranscript, onDownload, onPlay }: { call: AdminCall; playing: boolean; loadingTranscript: boolean; onCopy: () => void; onTranscript: () => void; onDownload: () => void; onPlay: () => void }) {
  return (
    <tr className="align-top hover:bg-slate-50">
      <td className={TD}>
        <button type="button" title={call.call_id} onClick={onCopy} className="font-mono text-xs text-indigo-700 hover:underline" aria-label={`Copy call ID ${call.call_id}`}>
          {shortId(call.call_id)}
        </button>
      </td>
      <td className={TD}>
        <p className="font-medium text-slate-900">{who(call)}</p>
        {call.user && <p className="text-xs text-slate-500">{call.user.email}</p>}
        <p className="text-xs text-slate-500" data-testid="call-kind">
          {placedFrom(call.kind)}
        </p>
      </td>
      <td className={`${TD} text-xs tabular-nums`}>{call.from}</td>
      <td className={`${TD} text-xs tabular-nums`}>{call.to}</td>
      <td className={`${TD} tabular-nums`}>{formatLength(call.call_length)}</td>
      <td className={`${TD} text-xs`}>{formatDateTime(call.created_at)}</td>
      <td className={TD}>
        <StatusBadge status={call.status} outcome={call.outcome} />
      </td>
      <td className={`${TD} tabular-nums`}>{formatCurrency(call.cost ?? 0)}</td>
      <td className={TD}>
        <div className="flex items-center gap-1">
          <Button asChild variant="ghost" size="sm">
            <Link to={`/admin/calls/${encodeURIComponent(call.call_id)}`} aria-label="Open call page" title="Open the call's page">
              <ExternalLink className="h-4 w-4" aria-hidden />
            </Link>
          </Button>
          <Button variant="ghost" size="sm" aria-label="View transcript" disabled={loadingTranscript} onClick={onTranscript}>
            <FileText className="h-4 w-4" aria-hidden />
          </Button>
          <Button variant="ghost" size="sm" aria-label="Download recording" disabled={!call.record_url} onClick={onDownload}>
            <Download className="h-4 w-4" aria-hidden />
          </Button>
          <Button variant="ghost" size="sm" aria-label="Play recording" disabled={!call.record_url || playing} onClick={onPlay}>
            <Play className="h-4 w-4" aria-hidden />
          </Button>
        </div>
        {playing && call.record_url && <RecordingPlayer callId={call.call_id} className="mt-2 w-56" />}
      </td>
    </tr>
  )
}
