/** The admin System page (/admin/system): each part of the running system (carrier, brain, speech
 * engines, job broker, realtime manager, database, recordings storage, mail, payments), what it
 * is, and whether it answers, checked by the server when the page opens and on "Check again". */
import { useQuery } from '@tanstack/react-query'
import { CheckCircle2, CircleOff, RefreshCw, XCircle } from 'lucide-react'
import { PageHeader } from '@/components/kit'
import { Button } from '@/components/ui/button'
import { Card, Skeleton } from '@/components/ui/card'
import { cn } from '@/lib/cn'
import { systemReportQuery, type SystemComponent } from './api'

const HEALTH = {
  ok: { label: 'OK', icon: CheckCircle2, badge: 'bg-emerald-50 text-emerald-700 ring-emerald-200' },
  failing: { label: 'Failing', icon: XCircle, badge: 'bg-rose-50 text-rose-700 ring-rose-200' },
  off: { label: 'Not configured', icon: CircleOff, badge: 'bg-slate-100 text-slate-600 ring-slate-200' },
} as const

function HealthBadge({ health }: { health: SystemComponent['health'] }) {
  const h = HEALTH[health]
  return (
    <span className={cn('inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1', h.badge)}>
      <h.icon className="h-3.5 w-3.5" aria-hidden /> {h.label}
    </span>
  )
}

function ComponentCard({ part }: { part: SystemComponent }) {
  return (
    <Card className={cn('flex flex-col p-5', part.health === 'failing' && 'border-rose-300')} data-testid={`system-${part.key}`}>
      <div className="flex items-start justify-between gap-3">
        <div>
          <h2 className="text-sm font-medium text-slate-500">{part.name}</h2>
          <p className="mt-1 font-semibold text-slate-900">{part.value}</p>
        </div>
        <HealthBadge health={part.health} />
      </div>
      <p className={cn('mt-3 flex-1 text-sm', part.health === 'failing' ? 'text-rose-700' : 'text-slate-600')}>{part.detail}</p>
      {(part.latency_ms != null || part.settings.length > 0) && (
        <div className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-500">
          {part.latency_ms != null && <span>checked in {part.latency_ms} ms</span>}
          {part.settings.length > 0 && (
            <span>
              settings:{' '}
              {part.settings.map((name, i) => (
                <span key={name}>
                  {i > 0 && ', '}
                  <code className="font-mono">{name}</code>
                </span>
              ))}
            </span>
          )}
        </div>
      )}
    </Card>
  )
}

export function SystemPage() {
  const report = useQuery(systemReportQuery())
  const data = report.data
  const failing = data?.components.filter((c) => c.health === 'failing') ?? []
  return (
    <div className="space-y-6">
      <PageHeader
        title="System"
        subtitle="What this server runs on, and whether each part answers. Checked when the page opens."
        action={
          <Button variant="secondary" onClick={() => void report.refetch()} disabled={report.isFetching}>
            <RefreshCw className={cn('h-4 w-4', report.isFetching && 'animate-spin')} aria-hidden /> {report.isFetching ? 'Checking...' : 'Check again'}
          </Button>
        }
      />
      {report.isError && !data && (
        <p role="alert" className="rounded-xl border border-rose-200 bg-rose-50 px-4 py-3 text-sm text-rose-700">
          {report.error.message}
        </p>
      )}
      {data && (
        <p
          role="status"
          className={cn('rounded-xl border px-4 py-3 text-sm font-medium', failing.length ? 'border-rose-200 bg-rose-50 text-rose-800' : 'border-emerald-200 bg-emerald-50 text-emerald-800')}
        >
          {failing.length === 0
            ? 'Every configured part answers.'
            : `${failing.length} ${failing.length === 1 ? 'part is' : 'parts are'} failing: ${failing.map((c) => c.name).join(', ')}.`}{' '}
          <span className="font-normal">Checked at {new Date(data.checked_at).toLocaleTimeString()}.</span>
        </p>
      )}
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3" aria-busy={report.isPending}>
        {report.isPending
          ? Array.from({ length: 11 }, (_, i) => <Skeleton key={i} className="h-40" />)
          : data?.components.map((part) => <ComponentCard key={part.key} part={part} />)}
      </div>
    </div>
  )
}
