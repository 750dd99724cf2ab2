/** Small pieces of the campaign screens: the state badge, the progress bar, the counters. */
import { cn } from '@/lib/cn'
import type { Campaign, CampaignState } from './api'
import { counts, STATE_LABEL } from './labels'

const STATE_STYLE: Record<CampaignState, string> = {
  draft: 'bg-slate-100 text-slate-700 ring-slate-200',
  scheduled: 'bg-sky-50 text-sky-700 ring-sky-200',
  running: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  paused: 'bg-amber-50 text-amber-800 ring-amber-200',
  completed: 'bg-indigo-50 text-indigo-700 ring-indigo-200',
  cancelled: 'bg-rose-50 text-rose-700 ring-rose-200',
}

export function StateBadge({ state }: { state: CampaignState }) {
  return (
    <span data-testid="campaign-state" className={cn('inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset', STATE_STYLE[state])}>
      {STATE_LABEL[state]}
    </span>
  )
}

/** Contacts finished (done, opted out, skipped) of all, as a bar with its numbers. */
export function Progress({ campaign }: { campaign: Campaign }) {
  const c = counts(campaign)
  const finished = c.done + c.opted_out + c.skipped
  const percent = c.total ? Math.round((finished / c.total) * 100) : 0
  return (
    <div className="min-w-40">
      <div className="h-2 overflow-hidden rounded-full bg-slate-100" role="progressbar" aria-valuemin={0} aria-valuemax={c.total} aria-valuenow={finished} aria-label={`${campaign.name}: ${finished} of ${c.total} contacts finished`}>
        <div className="h-full rounded-full bg-indigo-500 transition-all" style={{ width: `${percent}%` }} />
      </div>
      <p className="mt-1 text-xs text-slate-500">
        {finished} of {c.total} finished{c.calling ? ` · ${c.calling} in a call` : ''}
      </p>
    </div>
  )
}

/** One number of the overview, with its label. */
export function Count({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="rounded-lg bg-slate-50 px-4 py-3 ring-1 ring-inset ring-slate-200">
      <p className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</p>
      <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900" data-testid={testId}>
        {value}
      </p>
    </div>
  )
}
