/** Pieces shared by the dashboard, send-call and call-logs screens. */
import { useQuery } from '@tanstack/react-query'
import { Dialog } from 'radix-ui'
import { X } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { Card, Skeleton, Spinner } from '@/components/ui/card'
import { cn } from '@/lib/cn'
import { notify } from '@/lib/toast'
import { callCost, formatCallDuration, formatClock, formatCurrency, formatDateTime, statusStyle } from '@/lib/format'
import { callsQuery, playUrl, type TranscriptLine } from './api'

const TONES = {
  green: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  yellow: 'bg-amber-50 text-amber-700 ring-amber-200',
  red: 'bg-rose-50 text-rose-700 ring-rose-200',
  blue: 'bg-sky-50 text-sky-700 ring-sky-200',
  slate: 'bg-slate-100 text-slate-700 ring-slate-200',
} as const

export function StatusBadge({ status }: { status: string | null | undefined }) {
  const { label, tone } = statusStyle(status)
  return <span className={cn('inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold capitalize ring-1 ring-inset', TONES[tone])}>{label}</span>
}

/** The latest calls (5 on the dashboard, 2 on send-call) with a "View all calls" button. */
export function RecentCalls({ userId, limit, viewAllTo, title = 'Recent Call History' }: { userId: number; limit: number; viewAllTo: string; title?: string }) {
  const calls = useQuery(callsQuery(userId, 1, limit))
  const rows = calls.data?.data ?? []
  return (
    <Card className="overflow-hidden">
      <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-5 py-4">
        <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
        <Button asChild variant="secondary" size="sm">
          <Link to={viewAllTo}>View all calls</Link>
        </Button>
      </div>
      {calls.isPending ? (
        <ul className="divide-y divide-slate-100" aria-label="Loading recent calls">
          {Array.from({ length: limit }, (_, i) => (
            <li key={i} className="flex items-center gap-4 px-5 py-3">
              <Skeleton className="h-4 w-32" />
              <Skeleton className="h-4 w-24" />
              <Skeleton className="ml-auto h-5 w-20" />
            </li>
          ))}
        </ul>
      ) : calls.isError ? (
        <p role="alert" className="px-5 py-6 text-sm text-rose-600">
          Failed to load recent calls: {calls.error.message}
        </p>
      ) : rows.length === 0 ? (
        <p className="px-5 py-8 text-center text-sm text-slate-500">No recent calls.</p>
      ) : (
        <ul className="divide-y divide-slate-100" data-testid="recent-calls">
          {rows.map((call) => (
            <li key={call.call_id} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-5 py-3 text-sm">
              <span className="font-medium text-slate-900">{call.to}</span>
              <span className="text-slate-500">{formatDateTime(call.created_at)}</span>
              <span className="tabular-nums text-slate-600">{formatCallDuration(call.corrected_duration)}</span>
              <span className="tabular-nums text-slate-600">{formatCurrency(callCost(call.corrected_duration))}</span>
              <span className="ml-auto">
                <StatusBadge status={call.status} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}

export function Modal({ open, onOpenChange, title, children, footer, wide = false }: { open: boolean; onOpenChange: (open: boolean) => void; title: string; children: ReactNode; footer?: ReactNode; wide?: boolean }) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/40" />
        <Dialog.Content
          aria-describedby={undefined}
          className={cn("fixed left-1/2 top-1/2 z-50 flex max-h-[90vh] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col rounded-xl bg-white shadow-xl ring-1 ring-slate-200 focus:outline-none", wide ? 'max-w-3xl' : 'max-w-lg')}
        >
          <div className="flex items-center justify-between border-b border-slate-200 px-5 py-4">
            <Dialog.Title className="text-lg font-semibold text-slate-900">{title}</Dialog.Title>
            <Dialog.Close asChild>
              <Button variant="ghost" size="icon" aria-label="Close">
                <X className="h-5 w-5" aria-hidden />
              </Button>
            </Dialog.Close>
          </div>
          <div className="overflow-y-auto px-5 py-4">{children}</div>
          {footer && <div className="flex justify-end gap-2 border-t border-slate-200 px-5 py-3">{footer}</div>}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

export function TranscriptView({ lines, loading }: { lines: TranscriptLine[] | undefined; loading?: boolean }) {
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
                {agent ? 'Agent' : 'User'} · {formatClock(line.created_at)}
              </p>
              <p>{line.text}</p>
            </div>
          </li>
        )
      })}
    </ol>
  )
}

/** The inline player a call log opens for one recording (it starts at once and toasts the
 * spec's messages). */
export function RecordingPlayer({ callId, className }: { callId: string; className?: string }) {
  return (
    <audio
      controls
      autoPlay
      preload="metadata"
      src={playUrl(callId)}
      className={cn('h-9', className)}
      data-testid={`player-${callId}`}
      onPlay={() => notify.success('Playing recording')}
      onError={() => notify.error('Failed to play recording: the recording could not be loaded')}
    />
  )
}
