/** Call Logs (spec sections 2, 4, 8): 7 calls a page, a table on desktop and cards on phones,
 * transcript and report modals, an inline player (one plays at a time) and downloads. */
import { FundsHint } from '@/components/FundsHint'
import { useQuery } from '@tanstack/react-query'
import { Download, ExternalLink, FileText, Flag, Play } from 'lucide-react'
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react'
import { Link, useSearchParams } from 'react-router'
import { SearchBox, Select } from '@/components/kit'
import { Pager } from '@/components/Pager'
import { Button } from '@/components/ui/button'
import { Card, Skeleton, Spinner } from '@/components/ui/card'
import { messageOf } from '@/lib/api'
import { isOutcome, OUTCOMES, type Outcome } from '@/lib/outcomes'
import { callCost, formatCallDuration, formatCurrency, formatDateTime } from '@/lib/format'
import { getUser } from '@/lib/session'
import { notify } from '@/lib/toast'
import { CALL_LOGS_PAGE_SIZE, callsApi, callsQuery, type CallRecord } from './api'
import { Modal } from '@/components/Modal'
import { RecordingPlayer } from '@/components/calls/RecordingPlayer'
import { StatusBadge } from '@/components/StatusBadge'
import { CallSummary } from '@/components/calls/CallSummary'
import { TranscriptView } from '@/components/calls/TranscriptView'
import { TurnLatencyTable } from '@/components/calls/TurnLatencies'
import { useMediaQuery } from './useMediaQuery'
import { saveRecording } from '@/components/calls/recording'
import { useOneAudioAtATime } from '@/components/calls/useOneAudioAtATime'
import { useTranscript } from '@/components/calls/useTranscript'

export function CallLogsPage() {
  const userId = getUser()?.id ?? 0
  const [page, setPage] = useState(1)
  const [outcome, setOutcome] = useState<Outcome | ''>('')
  const [number, setNumber] = useState('')
  const filtered = Boolean(outcome || number)
  const calls = useQuery(callsQuery(userId, page, CALL_LOGS_PAGE_SIZE, { outcome: outcome || undefined, q: number || undefined }))
  const rows = calls.isError ? [] : (calls.data?.data ?? [])
  const lastPage = calls.data?.pagination.last_page ?? 1
  const [playing, setPlaying] = useState<Set<string>>(new Set())
  const transcript = useTranscript((error) => messageOf(error, 'Failed to fetch call details'))
  const [reporting, setReporting] = useState<string | null>(null)
  useOneAudioAtATime()
  // A link from elsewhere (a campaign's contact) opens that call's details: ?call=<id>.
  const [params] = useSearchParams()
  const linked = params.get('call')
  const openLinked = useRef(transcript.open)
  useEffect(() => {
    if (linked) void openLinked.current(linked)
  }, [linked])
  // One layout at a time (not both hidden by CSS), so a row has exactly one player.
  const desktop = useMediaQuery('(min-width: 768px)')

  useEffect(() => {
    if (calls.isError) notify.error(`Status : ${calls.error.message}`)
  }, [calls.isError, calls.error])

  const onSearch = useCallback((text: string) => {
    setNumber(text)
    setPage(1)
  }, [setNumber, setPage])

  const download = (id: string) => saveRecording(id, (error) => messageOf(error, 'Failed to download recording'))

  const play = (id: string) => {
    setPlaying((current) => new Set(current).add(id))
  }
  const actions = (call: CallRecord) => (
    <Actions call={call} playing={playing.has(call.call_id)} loadingTranscript={transcript.loadingId === call.call_id} onTranscript={transcript.open} onPlay={play} onDownload={download} onReport={setReporting} />
  )

  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Call Logs</h1>
        <p className="mt-1 text-sm text-slate-500">Every call you placed, newest first. Open a call for its recording, transcript, analysis and cost.</p>
      </header>
      <div className="flex flex-wrap items-center gap-3" role="search" aria-label="Filter calls">
        <SearchBox placeholder="Search by phone number" onSearch={onSearch} />
        <Select
          aria-label="Outcome"
          value={outcome}
          onChange={(e) => {
            setOutcome(isOutcome(e.target.value) ? e.target.value : '')
            setPage(1)
          }}
          className="w-auto min-w-44"
          data-testid="outcome-filter"
        >
          <option value="">All outcomes</option>
          {Object.entries(OUTCOMES).map(([value, style]) => (
            <option key={value} value={value}>
              {style.label}
            </option>
          ))}
        </Select>
      </div>
      <Card className="overflow-hidden">
        {calls.isPending ? (
          <div className="divide-y divide-slate-100" aria-label="Loading calls">
            {Array.from({ length: CALL_LOGS_PAGE_SIZE }, (_, i) => (
              <div key={i} className="flex gap-4 px-5 py-4">
                <Skeleton className="h-4 w-28" />
                <Skeleton className="h-4 w-28" />
                <Skeleton className="h-4 w-36" />
                <Skeleton className="ml-auto h-4 w-24" />
              </div>
            ))}
          </div>
        ) : calls.isError ? (
          <p role="alert" className="px-5 py-8 text-center text-sm text-rose-600">
            {calls.error.message}
          </p>
        ) : rows.length === 0 ? (
          <div className="px-5 py-12 text-center text-sm text-slate-500">
            <p>{filtered ? 'No calls match these filters' : 'No calls found'}</p>
            {!filtered && <FundsHint />}
          </div>
        ) : desktop ? (
          <CallsTable rows={rows} actions={actions} />
        ) : (
          <CallCards rows={rows} actions={actions} />
        )}
        <Pager page={page} lastPage={lastPage} onPage={setPage} busy={calls.isPending} />
      </Card>

      <Modal open={transcript.transcript !== null} onOpenChange={(open) => !open && transcript.close()} title="Call Transcript">
        {transcript.transcript && <CallSummary call={transcript.transcript.call} onAnalysed={transcript.analysed} />}
        <TranscriptView lines={transcript.transcript?.lines} answeredBy={transcript.transcript?.call.answered_by} />
        {transcript.transcript && <TurnLatencyTable turns={transcript.transcript.call.latencies} className="mt-6 border-t border-slate-100 pt-4" />}
      </Modal>
      <ReportModal callId={reporting} onClose={() => setReporting(null)} />
    </div>
  )
}

/** The calls as a table (a wide screen). */
function CallsTable({ rows, actions }: { rows: CallRecord[]; actions: (call: CallRecord) => ReactNode }) {
  return (
    <table className="w-full text-left text-sm" data-testid="calls-table">
      <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-500">
        <tr>
          {['From', 'To', 'Date', 'Duration', 'Cost', 'Status', 'Actions'].map((h) => (
            <th key={h} scope="col" className="px-4 py-3">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map((call) => (
          <tr key={call.call_id} className="align-top">
            <td className="px-4 py-3 tabular-nums">{call.from}</td>
            <td className="px-4 py-3 tabular-nums">{call.to}</td>
            <td className="px-4 py-3 text-slate-600">{formatDateTime(call.created_at)}</td>
            <td className="px-4 py-3 tabular-nums">{formatCallDuration(call.corrected_duration)}</td>
            <td className="px-4 py-3 tabular-nums">{formatCurrency(callCost(call.corrected_duration))}</td>
            <td className="px-4 py-3">
              <StatusBadge status={call.status} outcome={call.outcome} />
            </td>
            <td className="px-4 py-3">{actions(call)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** The calls as cards (a phone). */
function CallCards({ rows, actions }: { rows: CallRecord[]; actions: (call: CallRecord) => ReactNode }) {
  return (
    <ul className="divide-y divide-slate-100" data-testid="calls-cards">
      {rows.map((call) => (
        <li key={call.call_id} className="space-y-2 px-4 py-4 text-sm">
          <div className="flex items-center justify-between">
            <span className="font-semibold text-slate-900">{call.to}</span>
            <StatusBadge status={call.status} outcome={call.outcome} />
          </div>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-slate-600">
            <dt>From</dt>
            <dd className="tabular-nums">{call.from}</dd>
            <dt>Date</dt>
            <dd>{formatDateTime(call.created_at)}</dd>
            <dt>Duration</dt>
            <dd className="tabular-nums">{formatCallDuration(call.corrected_duration)}</dd>
            <dt>Cost</dt>
            <dd className="tabular-nums">{formatCurrency(callCost(call.corrected_duration))}</dd>
          </dl>
          {actions(call)}
        </li>
      ))}
    </ul>
  )
}

function Actions({
  call,
  playing,
  loadingTranscript,
  onTranscript,
  onPlay,
  onDownload,
  onReport,
}: {
  call: CallRecord
  playing: boolean
  loadingTranscript: boolean
  onTranscript: (id: string) => void
  onPlay: (id: string) => void
  onDownload: (id: string) => void
  onReport: (id: string) => void
}) {
  const hasRecording = Boolean(call.record_url)
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-1.5">
        <Button asChild size="sm">
          <Link to={`/dashboard/calls/${encodeURIComponent(call.call_id)}`} aria-label="Open call page">
            <ExternalLink className="h-3.5 w-3.5" aria-hidden /> Open
          </Link>
        </Button>
        <Button variant="secondary" size="sm" onClick={() => onTranscript(call.call_id)} aria-label="View transcript">
          {loadingTranscript ? <Spinner className="h-3.5 w-3.5" /> : <FileText className="h-3.5 w-3.5" aria-hidden />}
          Transcript
        </Button>
        <Button variant="secondary" size="sm" disabled={!hasRecording || playing} onClick={() => onPlay(call.call_id)} aria-label="Play recording">
          <Play className="h-3.5 w-3.5" aria-hidden /> Play
        </Button>
        <Button variant="secondary" size="sm" disabled={!hasRecording} onClick={() => onDownload(call.call_id)} aria-label="Download recording">
          <Download className="h-3.5 w-3.5" aria-hidden /> Download
        </Button>
        <Button variant="ghost" size="sm" onClick={() => onReport(call.call_id)} aria-label="Report call">
          <Flag className="h-3.5 w-3.5" aria-hidden /> Report
        </Button>
      </div>
      {playing && hasRecording && <RecordingPlayer callId={call.call_id} className="w-full max-w-xs" />}
    </div>
  )
}

function ReportModal({ callId, onClose }: { callId: string | null; onClose: () => void }) {
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  /** Shown when Report is pressed without a reason (the button stays enabled to say so). */
  const [missing, setMissing] = useState(false)
  const field = useRef<HTMLTextAreaElement>(null)
  const close = () => {
    setReason('')
    setMissing(false)
    onClose()
  }
  const submit = async () => {
    if (!callId) return
    if (!reason.trim()) {
      setMissing(true)
      field.current?.focus()
      return
    }
    setBusy(true)
    try {
      await callsApi.report(callId, reason.trim())
      notify.success('Call reported successfully')
    } catch (error) {
      notify.error(`Failed to report call: ${messageOf(error, 'Failed to report call')}`)
    } finally {
      setBusy(false)
      close()
    }
  }
  return (
    <Modal
      open={callId !== null}
      onOpenChange={(open) => !open && close()}
      title="Report Call"
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="danger" disabled={busy} onClick={() => void submit()}>
            {busy && <Spinner className="h-4 w-4" />} Report
          </Button>
        </>
      }
    >
      <label htmlFor="report-reason" className="text-sm font-medium text-slate-700">
        Reason for Reporting
      </label>
      <textarea
        id="report-reason"
        ref={field}
        value={reason}
        onChange={(e) => {
          setReason(e.target.value)
          if (e.target.value.trim()) setMissing(false)
        }}
        aria-invalid={missing || undefined}
        aria-describedby={missing ? 'report-reason-error' : undefined}
        placeholder="Enter reason"
        rows={4}
        maxLength={2000}
        className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200"
      />
      {missing && (
        <p id="report-reason-error" role="alert" className="mt-1 text-xs font-medium text-rose-600">
          Please give a reason for reporting this call.
        </p>
      )}
    </Modal>
  )
}
