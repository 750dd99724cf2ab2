/** A call's transcript as a conversation: the agent's lines on the right, the callee's on the left. */
import { Spinner } from '@/components/ui/card'
import { cn } from '@/lib/cn'
import { formatClock } from '@/lib/format'
import type { TranscriptLine } from './api'

/** `answeredBy` "voicemail" labels the callee's lines as the voicemail's (its greeting). */
export function TranscriptView({ lines, loading, answeredBy }: { lines: TranscriptLine[] | undefined; loading?: boolean; answeredBy?: string | null }) {
  const callee = answeredBy === 'voicemail' ? 'Voicemail' : 'User'

  if (loading) return <Spinner className="mx-auto my-6 h-6 w-6" />
  if (!lines || lines.length === 0) return <p className="py-6 text-center text-sm text-slate-500">No transcript available.</p>
  return (
    <ol className="space-y-3" data-testid="transcript-lines">
      {lines.map((line, i) => {
        const agent = line.user === 'assistant'
        return (
          <li key={i} className={cn('flex', agent ? 'justify-end' : 'justify-start')}>
            <div className={cn('max-w-[80%] rounded-2xl px-4 py-2 text-sm', agent ? 'bg-indigo-600 text-white' : 'bg-slate-100 text-slate-900')}>
              <p className="text-[11px] font-semibold uppercase tracking-wide opacity-75">
                {agent ? 'Agent' : line.user === 'person' ? 'Person' : callee} · {formatClock(line.created_at)}
              </p>
              <p>{line.text}</p>
            </div>
          </li>
        )
      })}
    </ol>
  )
}
