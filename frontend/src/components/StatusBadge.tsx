/** A call's status as a coloured pill: how it ended once it has (lib/outcomes), else its status
 * (the spec's labels and colours, from lib/format). */
import { cn } from '@/lib/cn'
import { statusStyle } from '@/lib/format'
import { isOutcome, OUTCOMES, type Tone } from '@/lib/outcomes'

const TONES: Record<Tone, string> = {
  green: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  yellow: 'bg-amber-50 text-amber-700 ring-amber-200',
  red: 'bg-rose-50 text-rose-700 ring-rose-200',
  blue: 'bg-sky-50 text-sky-700 ring-sky-200',
  slate: 'bg-slate-100 text-slate-700 ring-slate-200',
  violet: 'bg-violet-50 text-violet-700 ring-violet-200',
  orange: 'bg-orange-50 text-orange-700 ring-orange-200',
  cyan: 'bg-cyan-50 text-cyan-800 ring-cyan-200',
  teal: 'bg-teal-50 text-teal-700 ring-teal-200',
  lime: 'bg-lime-50 text-lime-800 ring-lime-200',
  fuchsia: 'bg-fuchsia-50 text-fuchsia-700 ring-fuchsia-200',
}

export function StatusBadge({ status, outcome }: { status: string | null | undefined; outcome?: string | null }) {
  const ended = isOutcome(outcome)
  const { label, tone } = ended ? OUTCOMES[outcome] : statusStyle(status)
  return (
    <span data-tone={tone} className={cn('inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset', !ended && 'capitalize', TONES[tone])}>
      {label}
    </span>
  )
}
