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

/** An action's status, arguments (a tool's, the keys pressed, the transfer's target) and
 * latency: under its line in the live transcript and on the call page's timeline. */
export function ActionFacts({ action, named = false, className }: { action: CallAction; named?: boolean; className?: string }) {
  const args = argumentsText(action.arguments)
  return (
    <p className={cn('flex flex-wrap gap-x-2', className)} data-testid="action-facts">
      <span className={cn('font-semibold', STATUS[action.status])}>{action.status}</span>
      {named && <span className="font-mono font-medium">{action.name}</span>}
      {args && <span className="break-words font-mono">{args}</span>}
      {action.latency_ms != null && <span>{action.latency_ms} ms</span>}
    </p>
  )
}

export function ActionLine({ text, action, timestamp }: { text: string; action: CallAction; timestamp: string }) {
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
        <ActionFacts action={action} className="mt-0.5" />
      </div>
    </div>
  )
}
