/** A lab run's or result's status as a coloured pill with an icon (never colour alone). */
import { CheckCircle2, CircleDashed, Loader2, PhoneCall, XCircle, AlertTriangle } from 'lucide-react'
import { cn } from '@/lib/cn'

const LOOK: Record<string, { label: string; className: string; icon: typeof CheckCircle2 }> = {
  queued: { label: 'Queued', className: 'bg-slate-100 text-slate-700 ring-slate-200', icon: CircleDashed },
  calling: { label: 'Calling', className: 'bg-sky-50 text-sky-700 ring-sky-200', icon: PhoneCall },
  running: { label: 'Running', className: 'bg-sky-50 text-sky-700 ring-sky-200', icon: Loader2 },
  passed: { label: 'Passed', className: 'bg-emerald-50 text-emerald-700 ring-emerald-200', icon: CheckCircle2 },
  failed: { label: 'Failed', className: 'bg-rose-50 text-rose-700 ring-rose-200', icon: XCircle },
  error: { label: 'Error', className: 'bg-orange-50 text-orange-800 ring-orange-200', icon: AlertTriangle },
}

export function LabStatus({ status, testId }: { status: string; testId?: string }) {
  const look = LOOK[status] ?? { label: status, className: 'bg-slate-100 text-slate-700 ring-slate-200', icon: CircleDashed }
  const Icon = look.icon
  return (
    <span data-testid={testId} data-status={status} className={cn('inline-flex shrink-0 items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset', look.className)}>
      <Icon className={cn('h-3.5 w-3.5', status === 'running' && 'animate-spin')} aria-hidden />
      {look.label}
    </span>
  )
}
