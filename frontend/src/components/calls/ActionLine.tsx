/** An action line of a call's live transcript (docs/actions.md): what the agent did (a tool
 * called, a transfer, keys), with its arguments, its status and how long it took. */
import { Wrench } from 'lucide-react'
import { formatClock } from '@/lib/format'
import { cn } from '@/lib/cn'
import type { CallAction } from './liveTranscript'

const STATUS = {
  started: 'text-amber-700',
  succeeded: 'text-emerald-700',
  failed: 'text-rose-700',
  'timed-out': 'text-rose-700',
} as const

function argumentsText(args: CallAction['arguments']): string {
  return Object.entries(args ?? {})
    .map(([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ')
}

export function ActionLine({ text, action, timestamp }: { text: string; action: CallAction; timestamp: string }) {
  const args = argumentsText(action.arguments)
  return (
    <div className="flex justify-center" data-action={action.kind} data-status={action.status}>
      <div className="max-w-[90%] rounded-lg bg-amber-50 px-3 py-1.5 text-xs text-amber-900 ring-1 ring-inset ring-amber-200">
        <p className="flex items-center gap-1.5">
          <Wrench className="h-3.5 w-3.5 shrink-0" aria-hidden />
          <span className="font-medium">{text}</span>
          <time dateTime={timestamp} className="ml-1 tabular-nums opacity-70">
            {formatClock(timestamp)}
          </time>
        </p>
        <p className="mt-0.5 flex flex-wrap gap-x-2">
          <span className={cn('font-semibold', STATUS[action.status])}>{action.status}</span>
          {args && <span className="font-mono">{args}</span>}
          {action.latency_ms != null && <span>{action.latency_ms} ms</span>}
        </p>
      </div>
    </div>
  )
}
