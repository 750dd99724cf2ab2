/** A call's per-reply latency: one row per agent reply (end of speech, STT, brain, TTS and the
 * total the callee heard) and the median of each column. `TurnLatencyTable` draws given rows
 * (the call logs pass their call details' `latencies`); `TurnLatencies` loads a call's rows and,
 * with `live`, adds each reply as its `turn-latency` socket event arrives (the live call). */
import { Spinner } from '@/components/ui/card'
import { cn } from '@/lib/cn'
import type { TurnLatency } from './api'
import { formatMs, medianOf, STAGES, useTurnLatencies } from './turnLatency'

const CELL = 'px-2 py-1.5 text-right tabular-nums'

export function TurnLatencies({ callId, live = false, className }: { callId: string; live?: boolean; className?: string }) {
  const { turns, loading, error } = useTurnLatencies(callId, { live })
  return <TurnLatencyTable turns={turns} loading={loading} error={error} live={live} className={className} />
}

export function TurnLatencyTable({
  turns,
  loading = false,
  error = null,
  live = false,
  className,
}: {
  turns: TurnLatency[]
  loading?: boolean
  error?: string | null
  live?: boolean
  className?: string
}) {
  return (
    <section className={cn('space-y-2', className)} aria-label="Reply latency" data-testid="turn-latencies">
      <h3 className="text-sm font-semibold text-slate-900">Reply latency</h3>
      {loading ? (
        <p className="flex items-center gap-2 text-sm text-slate-500">
          <Spinner className="h-4 w-4" /> Loading latency…
        </p>
      ) : error && turns.length === 0 ? (
        <p role="alert" className="text-sm text-rose-600">
          {error}
        </p>
      ) : turns.length === 0 ? (
        <p className="text-sm text-slate-500">{live ? 'Each reply’s latency appears here as the agent answers.' : 'No replies were measured on this call.'}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full min-w-[28rem] text-xs">
            <thead className="text-slate-500">
              <tr>
                <th scope="col" className="px-2 py-1.5 text-left font-semibold">
                  Reply
                </th>
                {STAGES.map((stage) => (
                  <th key={stage.key} scope="col" title={stage.hint} className="px-2 py-1.5 text-right font-semibold">
                    {stage.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 text-slate-700">
              {turns.map((turn) => (
                <Figures key={turn.turn} label={String(turn.turn)} values={STAGES.map((stage) => turn[stage.key])} />
              ))}
            </tbody>
            <tfoot className="border-t border-slate-200 text-slate-900">
              <Figures label="Median" values={STAGES.map((stage) => medianOf(turns, stage.key))} strong />
            </tfoot>
          </table>
          {error && (
            <p role="alert" className="mt-1 text-xs text-rose-600">
              {error}
            </p>
          )}
        </div>
      )}
    </section>
  )
}

/** One row: its label, then a figure per stage (the last, heard, stands out). */
function Figures({ label, values, strong = false }: { label: string; values: (number | null)[]; strong?: boolean }) {
  return (
    <tr>
      <th scope="row" className={cn('px-2 py-1.5 text-left', strong ? 'font-semibold' : 'font-medium')}>
        {label}
      </th>
      {values.map((value, i) => (
        <td key={STAGES[i]?.key ?? i} className={cn(CELL, (strong || i === values.length - 1) && 'font-semibold text-slate-900')}>
          {formatMs(value)}
        </td>
      ))}
    </tr>
  )
}
