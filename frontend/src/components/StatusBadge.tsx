/** A call's status as a coloured pill (the spec's labels and colours, from lib/format). */
import { cn } from '@/lib/cn'
import { statusStyle } from '@/lib/format'

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
