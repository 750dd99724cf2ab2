/** The call as it goes on: its timer from the answer, what the server said about it, the
 * transcript as it is spoken, each turn's latency, and once it ended the way to its page. */
import { Eraser, Info, Timer } from 'lucide-react'
import type { Ref } from 'react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { cn } from '@/lib/cn'
import { ActionLine } from '@/components/calls/ActionLine'
import { FlowStepLine } from '@/components/flows/FlowStepLine'
import { formatClock, formatTimer } from '@/lib/format'
import { TurnLatencies } from '@/components/calls/TurnLatencies'
import type { useLiveCall } from '@/features/calls/useLiveCall'

type LiveCall = ReturnType<typeof useLiveCall>

/** `ref`: the panel, brought into view (and focused) when a call starts. */
export function LivePanel({ call, notice, ref }: { call: LiveCall; notice: string | null; ref: Ref<HTMLDivElement> }) {
  return (
    <Card
      ref={ref}
      tabIndex={-1}
      role="region"
      aria-labelledby="transcript-heading"
      data-testid="transcript-panel"
      className="flex min-h-[28rem] min-w-0 scroll-mt-20 flex-col focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-400 lg:scroll-mt-6"
    >
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-5 py-4">
        <h2 id="transcript-heading" className="text-lg font-semibold text-slate-900">
          Transcript
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          <span className={cn('inline-flex items-center gap-1 rounded-full px-2.5 py-1 text-sm font-semibold tabular-nums', call.inCall ? 'bg-emerald-50 text-emerald-700' : 'bg-slate-100 text-slate-600')} data-testid="call-timer">
            <Timer className="h-4 w-4" aria-hidden />
            {call.finalDuration ?? formatTimer(call.elapsed)}
          </span>
          <Button variant="ghost" size="sm" onClick={call.clear}>
            <Eraser className="h-4 w-4" aria-hidden /> Clear conversation
          </Button>
        </div>
      </div>
      {notice && (
        <p role="status" data-testid="call-notice" className="mx-5 mt-4 flex gap-2 rounded-lg bg-sky-50 px-3 py-2 text-sm text-sky-900 ring-1 ring-sky-200">
          <Info className="mt-0.5 h-4 w-4 shrink-0 text-sky-600" aria-hidden />
          <span>{notice}</span>
        </p>
      )}
      <Transcript call={call} />
      {call.callId && <TurnLatencies key={call.callId} callId={call.callId} live className="border-t border-slate-200 px-5 py-4" />}
      {call.callId && !call.active && (
        <p className="border-t border-slate-200 px-5 py-3 text-sm">
          <Link to={`/dashboard/calls/${call.callId}`} className="font-semibold text-indigo-600 hover:underline" data-testid="finished-call-link">
            Open this call's page
          </Link>{' '}
          <span className="text-slate-500">for its recording, analysis and cost.</span>
        </p>
      )}
    </Card>
  )
}

/** The lines said so far (a line still being spoken marked in flight), or what is awaited. */
function Transcript({ call: { lines, active, inCall } }: { call: LiveCall }) {
  return (
    <div className="flex-1 space-y-3 overflow-y-auto px-5 py-4" aria-live="polite" data-testid="live-transcript">
      {lines.length === 0 ? (
        <p className="py-10 text-center text-sm text-slate-500">{active ? (inCall ? 'Listening…' : 'Calling…') : 'The conversation appears here during a call.'}</p>
      ) : (
        lines.map((line) =>
          line.step ? (
            <FlowStepLine key={line.id} step={line.step} />
          ) : line.action ? (
            <ActionLine key={line.id} text={line.text} action={line.action} timestamp={line.timestamp} />
          ) : (
            <div key={line.id} className={cn('flex', line.isAgent ? 'justify-end' : 'justify-start')}>
              <div
                className={cn('max-w-[85%] rounded-2xl px-4 py-2 text-sm', line.isAgent ? 'bg-indigo-600 text-white' : 'bg-slate-100 text-slate-900')}
                data-speaker={line.isAgent ? 'agent' : 'user'}
                data-in-flight={line.inFlight || undefined}
              >
                <p className="flex items-center justify-between gap-3 text-[11px] font-semibold uppercase tracking-wide opacity-75">
                  <span>{line.isAgent ? 'Agent' : 'User'}</span>
                  <time dateTime={line.timestamp} className="font-normal normal-case tabular-nums">
                    {formatClock(line.timestamp)}
                  </time>
                </p>
                <p>
                  {line.text}
                  {line.inFlight && <span className="ml-0.5 inline-block animate-pulse motion-reduce:animate-none" aria-hidden>…</span>}
                </p>
              </div>
            </div>
          ),
        )
      )}
    </div>
  )
}
