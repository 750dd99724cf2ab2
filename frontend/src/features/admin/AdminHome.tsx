/** Admin home (spec section 2): four cards, calls by weekday, Recent Calls (5) and Top Users by
 * Call Volume (5); then the e-mail outbox of the embedded default. */
import { useQuery } from '@tanstack/react-query'
import { BarElement, CategoryScale, Chart as ChartJS, LinearScale, Tooltip } from 'chart.js'
import { Activity, Copy, DollarSign, ExternalLink, MailOpen, PhoneCall, Users } from 'lucide-react'
import { useEffect, useState, type ReactNode } from 'react'
import { Bar } from 'react-chartjs-2'
import { Pager } from '@/components/Pager'
import { StatCard } from '@/components/StatCard'
import { Button } from '@/components/ui/button'
import { Card, Skeleton } from '@/components/ui/card'
import { StatusBadge } from '@/components/StatusBadge'
import { cn } from '@/lib/cn'
import { formatDateTime } from '@/lib/format'
import { notify } from '@/lib/toast'
import { HOME_ROWS, callsQuery, chartsQuery, statsQuery, topUsersQuery } from './api'
import { outboxQuery } from './outbox'

ChartJS.register(CategoryScale, LinearScale, BarElement, Tooltip)

const STATUS_STYLE: Record<string, string> = {
  sent: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  stored: 'bg-slate-100 text-slate-700 ring-slate-200',
  pending: 'bg-amber-50 text-amber-700 ring-amber-200',
  failed: 'bg-rose-50 text-rose-700 ring-rose-200',
}

export function AdminHome() {
  const stats = useQuery(statsQuery())
  const charts = useQuery(chartsQuery())
  const recent = useQuery(callsQuery('', '-created_at', 1, HOME_ROWS))
  const top = useQuery(topUsersQuery())

  useEffect(() => {
    if (stats.isError) notify.error('Failed to fetch admin stats', 'Error')
    else if (stats.isSuccess && !stats.data) notify.warning('No stats data received', 'Warning')
  }, [stats.isError, stats.isSuccess, stats.data])
  useEffect(() => {
    if (recent.isError) notify.error('Failed to fetch calls', 'Error')
  }, [recent.isError])

  const s = stats.data
  const card = (value: ReactNode) =>
    stats.isPending ? <Skeleton className="mt-3 h-8 w-24" /> : <p className="mt-2 text-3xl font-bold tabular-nums text-slate-900">{s ? value : '—'}</p>
  const weekdays = charts.data?.weekdays ?? []

  return (
    <div className="space-y-8">
      <header>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Admin Dashboard</h1>
        <p className="mt-1 text-sm text-slate-500">Calls, users and money across Callwright.</p>
      </header>
      <section className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-label="Totals">
        <StatCard label="Total Calls" icon={PhoneCall}>{card(s?.totalCalls.toLocaleString())}</StatCard>
        <StatCard label="Total Users" icon={Users}>{card(s?.totalUsers.toLocaleString())}</StatCard>
        <StatCard label="Total Balance Used" icon={DollarSign} tone="emerald">{card(`$${(s?.totalUsedBalance ?? 0).toFixed(2)}`)}</StatCard>
        <StatCard label="Active Users" icon={Activity} tone="emerald">{card(s?.totalActiveUsers.toLocaleString())}</StatCard>
      </section>
      <Card className="p-5">
        <h2 className="text-lg font-semibold text-slate-900">Calls by Weekday</h2>
        <div className="mt-4 h-64">
          {charts.isPending ? (
            <Skeleton className="h-full w-full" />
          ) : charts.isError ? (
            <p role="alert" className="text-sm text-rose-600">{charts.error.message}</p>
          ) : (
            <Bar
              role="img"
              aria-label="Calls by weekday"
              data={{ labels: weekdays.map((d) => d.day), datasets: [{ label: 'Calls', data: weekdays.map((d) => d.calls), backgroundColor: '#6366f1', borderRadius: 6 }] }}
              options={{ maintainAspectRatio: false, plugins: { legend: { display: false } }, scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } }}
            />
          )}
        </div>
      </Card>
      <div className="grid gap-6 xl:grid-cols-2">
        <HomeTable
          title="Recent Calls"
          headers={['User', 'To', 'Date', 'Status']}
          loading={recent.isPending}
          empty="No recent calls"
          testId="recent-calls"
          rows={(recent.data?.calls ?? []).map((c) => [
            c.user?.name ?? (c.kind === 'test' ? 'Test call' : 'Deleted user'),
            c.to,
            new Date(c.created_at).toLocaleDateString(undefined, { dateStyle: 'short' }),
            <StatusBadge key="s" status={c.status} outcome={c.outcome} />,
          ])}
        />
        <HomeTable
          title="Top Users by Call Volume"
          headers={['Name', 'Email', 'Call Count']}
          loading={top.isPending}
          empty="No user data available"
          testId="top-users"
          rows={(top.data ?? []).map((u) => [u.name, u.email, u.call_count.toLocaleString()])}
        />
      </div>
      <OutboxPanel />
    </div>
  )
}

function HomeTable({ title, headers, rows, loading, empty, testId }: { title: string; headers: string[]; rows: ReactNode[][]; loading: boolean; empty: string; testId: string }) {
  return (
    <Card className="overflow-hidden">
      <h2 className="border-b border-slate-200 px-5 py-4 text-lg font-semibold text-slate-900">{title}</h2>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm" data-testid={testId}>
          <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
            <tr>
              {headers.map((h) => (
                <th key={h} scope="col" className="px-5 py-2 font-semibold">{h}</th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {loading ? (
              Array.from({ length: HOME_ROWS }, (_, i) => (
                <tr key={i}>
                  <td colSpan={headers.length} className="px-5 py-3"><Skeleton className="h-4 w-full" /></td>
                </tr>
              ))
            ) : rows.length === 0 ? (
              <tr>
                <td colSpan={headers.length} className="px-5 py-8 text-center text-slate-500">{empty}</td>
              </tr>
            ) : (
              rows.map((cells, i) => (
                <tr key={i}>
                  {cells.map((cell, j) => (
                    <td key={j} className="max-w-[14rem] truncate px-5 py-3 text-slate-700">{cell}</td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </Card>
  )
}

function OutboxPanel() {
  const [page, setPage] = useState(1)
  const outbox = useQuery(outboxQuery(page))
  const rows = outbox.data?.data ?? []
  const lastPage = outbox.data?.pagination.last_page ?? 1

  const copy = async (link: string) => {
    try {
      await navigator.clipboard.writeText(link)
      notify.success('Link copied to clipboard')
    } catch {
      notify.error('Could not copy the link')
    }
  }

  return (
    <Card className="overflow-hidden">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-5 py-4">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">E-mail outbox</h2>
          <p className="text-sm text-slate-500">
            Every message Callwright sends. Without SMTP configured, messages stay here: share a verification or reset link
            with the person it belongs to.
          </p>
        </div>
      </div>
      {outbox.isError ? (
        <p role="alert" className="px-5 py-8 text-center text-sm text-rose-600">
          {outbox.error.message}
        </p>
      ) : outbox.isPending ? (
        <div className="space-y-3 p-5" aria-label="Loading">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-10 w-full" />
          ))}
        </div>
      ) : rows.length === 0 ? (
        <div className="flex flex-col items-center gap-2 px-5 py-12 text-center text-slate-500">
          <MailOpen className="h-8 w-8" aria-hidden />
          <p className="text-sm">No e-mails yet.</p>
        </div>
      ) : (
        <ul className="divide-y divide-slate-100" data-testid="outbox-list">
          {rows.map((m) => (
            <li key={m.id} className="flex flex-col gap-2 px-5 py-4 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0">
                <p className="truncate text-sm font-semibold text-slate-900">{m.subject}</p>
                <p className="truncate text-xs text-slate-500">
                  to <span className="font-medium text-slate-700">{m.to}</span> · {formatDateTime(m.created_at)}
                </p>
              </div>
              <div className="flex flex-none items-center gap-2">
                <span className={cn('rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset', STATUS_STYLE[m.status] ?? STATUS_STYLE.stored)}>
                  {m.status}
                </span>
                {m.link && (
                  <>
                    <Button variant="ghost" size="sm" onClick={() => copy(m.link!)} aria-label={`Copy link of message ${m.id}`}>
                      <Copy className="h-4 w-4" aria-hidden />
                    </Button>
                    <Button asChild variant="secondary" size="sm">
                      <a href={m.link} target="_blank" rel="noopener noreferrer" data-testid="outbox-link">
                        Open link <ExternalLink className="h-3.5 w-3.5" aria-hidden />
                      </a>
                    </Button>
                  </>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {lastPage > 1 && <Pager page={page} lastPage={lastPage} onPage={setPage} />}
    </Card>
  )
}
