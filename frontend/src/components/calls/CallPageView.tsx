/** A call's own page (the owner's `/dashboard/calls/:id`, the admin's `/admin/calls/:id`): the
 * recording with its waveform and the transcript beside it (a line plays from where it begins;
 * the line being played is highlighted), the analysis with the line each fact comes from and a
 * button to run it again, the cost through the billing rule, the settings the call was placed
 * with, the latency of each reply and the call's events as a timeline. A call still live is
 * read again every few seconds until it ends. */
import { placedFrom } from './kinds'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { ArrowLeft, RotateCw } from 'lucide-react'
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { Link } from 'react-router'
import { StatusBadge } from '@/components/StatusBadge'
import { Button } from '@/components/ui/button'
import { Card, Skeleton } from '@/components/ui/card'
import { ApiError, messageOf } from '@/lib/api'
import { formatDateTime, formatLength } from '@/lib/format'
import { answeredByLabel, outcomeSentence } from '@/lib/outcomes'
import { callPageQuery, type CallAnalysis, type CallPageData, type CallPageScope } from './api'
import { CallAnalysisPanel } from './CallAnalysisPanel'
import { CallCost, CallSettingsList, CallTimeline } from './CallPageSections'
import { CallTransfer } from './CallTransfer'
import { CallRecording } from './CallRecording'
import { activeLine, lineOffsets } from './playback'
import { saveRecording } from './recording'
import { SyncedTranscript } from './SyncedTranscript'
import { TurnLatencyTable } from './TurnLatencies'
import { stepsAmongLines } from '@/components/flows/api'
import { FlowPathPanel } from '@/components/flows/FlowPathPanel'

/** How often a live call's page is read again (and a call just ended, until its analysis,
 * which runs on its own once the call's end is committed, has arrived). */
const LIVE_REFRESH_MS = 3000
const ANALYSIS_WAIT_MS = 60_000

function stillChanging(call: CallPageData | undefined): boolean {
  if (!call) return false
  if (!call.completed) return true
  const ended = call.times.ended_at ? new Date(call.times.ended_at).getTime() : 0
  return !call.analysis && Date.now() - ended < ANALYSIS_WAIT_MS
}

export function CallPageView({ callId, scope, backTo, backLabel }: { callId: string; scope: CallPageScope; backTo: string; backLabel: string }) {
  const page = useQuery({
    ...callPageQuery(callId, scope),
    refetchInterval: (query) => (stillChanging(query.state.data) ? LIVE_REFRESH_MS : false),
  })
  const back = (
    <Link to={backTo} className="inline-flex items-center gap-1.5 text-sm font-medium text-indigo-600 hover:text-indigo-800">
      <ArrowLeft className="h-4 w-4" aria-hidden /> {backLabel}
    </Link>
  )

  if (page.isPending)
    return (
      <div className="space-y-6" aria-label="Loading the call" aria-busy="true">
        {back}
        <Skeleton className="h-9 w-72" />
        <div className="grid gap-6 lg:grid-cols-5">
          <Skeleton className="h-96 lg:col-span-3" />
          <Skeleton className="h-96 lg:col-span-2" />
        </div>
      </div>
    )
  if (page.isError) {
    const missing = page.error instanceof ApiError && page.error.status === 404
    return (
      <div className="space-y-6">
        {back}
        <Card className="px-6 py-12 text-center" role="alert" data-testid={missing ? 'call-not-found' : 'call-error'}>
          <h1 className="text-lg font-semibold text-slate-900">{missing ? 'Call not found' : 'The call could not be loaded'}</h1>
          <p className="mt-1 text-sm text-slate-500">
            {missing ? 'There is no call with this id among the calls you can see.' : messageOf(page.error, 'Failed to fetch call details')}
          </p>
          {!missing && (
            <Button variant="secondary" className="mt-4" onClick={() => void page.refetch()}>
              <RotateCw className="h-4 w-4" aria-hidden /> Try again
            </Button>
          )}
        </Card>
      </div>
    )
  }
  return <CallPageBody call={page.data} scope={scope} back={back} />
}

function CallPageBody({ call, scope, back }: { call: CallPageData; scope: CallPageScope; back: ReactNode }) {
  const queryClient = useQueryClient()
  const hasRecording = Boolean(call.record_url)
  const { audioRef, time, setTime, duration, playing } = useAudioClock(hasRecording)

  const lines = call.transcripts
  const offsets = useMemo(() => (hasRecording ? lineOffsets(lines, call.times, duration) : lines.map(() => null)), [hasRecording, lines, call.times, duration])
  const active = hasRecording ? activeLine(offsets, time) : null
  const steps = call.pathway_logs ?? []
  const stepsBefore = useMemo(() => stepsAmongLines(call.pathway_logs ?? [], lines, call.times.answered_at, call.events), [call.pathway_logs, lines, call.times.answered_at, call.events])

  const seekTo = (index: number) => {
    const audio = audioRef.current
    const offset = offsets[index]
    if (!audio || offset === null || offset === undefined) return
    audio.currentTime = offset
    setTime(offset)
    if (audio.paused) void audio.play()?.catch(() => undefined)
  }
  const showLine = (line: number) => {
    if (hasRecording) seekTo(line - 1)
    document.getElementById(`line-${line}`)?.querySelector<HTMLElement>('button')?.focus()
  }
  const analysed = (analysis: CallAnalysis) =>
    queryClient.setQueryData(callPageQuery(call.call_id, scope).queryKey, (old) => (old ? { ...old, analysis } : old))

  const ended = call.outcome !== null
  return (
    <div className="space-y-6" data-testid="call-page">
      {back}
      <CallHeader call={call} ended={ended} />

      <div className="grid gap-6 lg:grid-cols-5">
        <div className="space-y-6 lg:col-span-3">
          <Panel title="Recording and transcript" id="recording">
            {hasRecording ? (
              <CallRecording
                callId={call.call_id}
                audioRef={audioRef}
                time={time}
                duration={duration}
                playing={playing}
                onDownload={() => void saveRecording(call.call_id, (error) => messageOf(error, 'Failed to download recording'))}
              />
            ) : (
              <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-500">{ended ? 'This call has no recording (it was never connected, or its audio was empty).' : 'The recording is ready once the call has ended.'}</p>
            )}
            <div className="mt-4 border-t border-slate-100 pt-4">
              <SyncedTranscript lines={lines} offsets={offsets} active={active} answeredBy={call.answered_by} onSeek={seekTo} stepsBefore={call.flow_id ? stepsBefore : undefined} />
            </div>
          </Panel>
          {call.flow_id && (
            <Panel title="Flow path" id="flow-path">
              <FlowPathPanel steps={steps} graph={call.flow_graph} version={call.flow_version} live={!ended} />
            </Panel>
          )}
          <Card className="p-5">
            <TurnLatencyTable turns={call.latencies} />
          </Card>
          <Panel title="Events" id="events">
            <CallTimeline events={call.events} />
          </Panel>
        </div>
        <div className="space-y-6 lg:col-span-2">
          <Panel title="Analysis" id="analysis">
            <CallAnalysisPanel callId={call.call_id} analysis={call.analysis} ended={ended} lineCount={lines.length} onAnalysed={analysed} onLine={showLine} />
          </Panel>
          <Panel title="Cost" id="cost">
            <CallCost billing={call.billing} />
          </Panel>
          {call.transfer.transferred_to && (
            <Panel title="Transfer" id="transfer">
              <CallTransfer transfer={call.transfer} />
            </Panel>
          )}
          <Panel title="Settings" id="settings">
            <CallSettingsList settings={call.settings} />
          </Panel>
        </div>
      </div>
    </div>
  )
}

/** The call's number, when, how long, who placed it (an admin's view), its outcome and who
 * answered. */
function CallHeader({ call, ended }: { call: CallPageData; ended: boolean }) {
  return (
    <header className="flex flex-wrap items-start justify-between gap-4">
      <div className="min-w-0">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
          Call to <span className="tabular-nums">{call.to}</span>
        </h1>
        <p className="mt-1 text-sm text-slate-500">
          From <span className="tabular-nums">{call.from}</span> · {formatDateTime(call.created_at)} ·{' '}
          <span data-testid="call-length">
            {call.outcome === null ? 'still in progress' : `${formatLength(call.corrected_duration)} connected`}
          </span>
          {call.owner && (
            <>
              {' '}
              · placed by <span className="font-medium text-slate-700">{call.owner.name}</span> ({call.owner.email})
            </>
          )}{' '}
          · <span data-testid="call-kind">{placedFrom(call.kind)}</span>
        </p>
        <p className="mt-0.5 break-all text-xs text-slate-500">Call ID {call.call_id}</p>
      </div>
      <div className="flex flex-col items-end gap-1 text-sm">
        <StatusBadge status={call.status} outcome={call.outcome} />
        <span className="text-slate-700" data-testid="call-outcome">
          {ended ? outcomeSentence(call.outcome, call.error) : 'The call is still in progress'}
        </span>
        <span className="text-xs text-slate-500" data-testid="call-answered-by">
          Answered by: {answeredByLabel(call.answered_by)}
        </span>
      </div>
    </header>
  )
}

/** The audio element is the clock: its position, length and play state, followed. */
function useAudioClock(hasRecording: boolean) {
  const audioRef = useRef<HTMLAudioElement | null>(null)
  const [time, setTime] = useState(0)
  const [duration, setDuration] = useState<number | null>(null)
  const [playing, setPlaying] = useState(false)

  useEffect(() => {
    const audio = audioRef.current
    if (!audio) return
    const onTime = () => setTime(audio.currentTime)
    const onDuration = () => setDuration(Number.isFinite(audio.duration) && audio.duration > 0 ? audio.duration : null)
    const onPlay = () => setPlaying(true)
    const onPause = () => setPlaying(false)
    const events: [string, () => void][] = [
      ['timeupdate', onTime],
      ['seeked', onTime],
      ['loadedmetadata', onDuration],
      ['durationchange', onDuration],
      ['play', onPlay],
      ['pause', onPause],
      ['ended', onPause],
    ]
    for (const [name, handler] of events) audio.addEventListener(name, handler)
    onDuration()
    return () => {
      for (const [name, handler] of events) audio.removeEventListener(name, handler)
    }
  }, [hasRecording])
  return { audioRef, time, setTime, duration, playing }
}

function Panel({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <Card className="p-5" role="region" aria-labelledby={`panel-${id}`}>
      <h2 id={`panel-${id}`} className="mb-3 text-base font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </Card>
  )
}
