/** A call's transcript beside its recording: each line is a button that seeks the recording to
 * where the line begins (Enter or Space from the keyboard), the line being played is
 * highlighted (`aria-current`) and kept in view inside the list. Lines are numbered as the
 * analysis cites them (1-based, in the order spoken). */
import { useEffect, useRef } from 'react'
import type { FlowStep } from '@/components/flows/api'
import { FlowStepLine } from '@/components/flows/FlowStepLine'
import { cn } from '@/lib/cn'
import { formatClock } from '@/lib/format'
import type { TranscriptLine } from './api'
import { formatPosition } from './playback'

export function SyncedTranscript({
  lines,
  offsets,
  active,
  answeredBy,
  onSeek,
  stepsBefore,
}: {
  lines: TranscriptLine[]
  offsets: (number | null)[]
  active: number | null
  answeredBy?: string | null
  onSeek: (index: number) => void
  /** A flow call's node changes: `[i]` those before line i, the last those after every line. */
  stepsBefore?: FlowStep[][]
}) {
  const listRef = useRef<HTMLOListElement | null>(null)
  const callee = answeredBy === 'voicemail' ? 'Voicemail' : 'User'

  // Keep the line being played in view, scrolling only the list (never the page).
  useEffect(() => {
    const list = listRef.current
    if (active === null || !list) return
    const item = list.querySelector<HTMLElement>(`[data-line="${active + 1}"]`)
    if (!item) return
    const top = item.offsetTop // the list is positioned: offsets are within it
    if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 3)
    }
  }, [active])

  if (lines.length === 0) return <p className="py-6 text-center text-sm text-slate-500">No transcript available.</p>
  return (
    <ol ref={listRef} className="relative max-h-[32rem] space-y-2 overflow-y-auto pr-1" data-testid="synced-transcript" aria-label="Transcript">
      {lines.map((line, i) => {
        const agent = line.user === 'assistant'
        const offset = offsets[i] ?? null
        const current = active === i
        const label = (
          <>
            <span className="flex items-center justify-between gap-2 text-[11px] font-semibold uppercase tracking-wide opacity-75">
              <span>
                {i + 1}. {agent ? 'Agent' : line.user === 'person' ? 'Person' : callee}
              </span>
              <span className="tabular-nums">{offset !== null ? formatPosition(offset) : formatClock(line.created_at)}</span>
            </span>
            <span className="mt-0.5 block">{line.text}</span>
          </>
        )
        const bubble = cn(
          'block w-full max-w-[85%] rounded-2xl px-4 py-2 text-left text-sm transition-colors',
          agent ? 'bg-indigo-50 text-indigo-950' : 'bg-slate-100 text-slate-900',
          current && (agent ? 'bg-indigo-600 text-white ring-2 ring-indigo-300' : 'bg-slate-700 text-white ring-2 ring-slate-300'),
        )
        return [
          ...(stepsBefore?.[i] ?? []).map((step, k) => (
            <li key={`step-${i}-${k}`}>
              <FlowStepLine step={step} />
            </li>
          )),
          <li key={line.seq} data-line={i + 1} id={`line-${i + 1}`} className={cn('flex', agent ? 'justify-end' : 'justify-start')}>
            {offset !== null ? (
              <button
                type="button"
                className={cn(bubble, 'focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 hover:brightness-95')}
                onClick={() => onSeek(i)}
                aria-current={current ? 'true' : undefined}
                aria-label={`Play from line ${i + 1} at ${formatPosition(offset)}: ${line.text}`}
                data-testid={`transcript-line-${i + 1}`}
              >
                {label}
              </button>
            ) : (
              <div className={bubble} data-testid={`transcript-line-${i + 1}`}>
                {label}
              </div>
            )}
          </li>,
        ]
      })}
      {(stepsBefore?.[lines.length] ?? []).map((step, k) => (
        <li key={`step-end-${k}`}>
          <FlowStepLine step={step} />
        </li>
      ))}
    </ol>
  )
}
