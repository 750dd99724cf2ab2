/** Admin Analysis (spec section 2): the eight overall statistics and the nine Call Analysis
 * charts, plus the calls per outcome. Every figure is computed in SQL on the server (GET admin/stats, GET admin/analytics). */
import { useQuery } from '@tanstack/react-query'
import { ArcElement, BarElement, CategoryScale, Chart as ChartJS, Legend, LinearScale, LineElement, PointElement, Tooltip, type ChartOptions } from 'chart.js'
import { useEffect, type ReactNode } from 'react'
import { Bar, Line, Pie } from 'react-chartjs-2'
import { Card, Skeleton } from '@/components/ui/card'
import { CHART_COLORS, OUTCOMES, statusColor } from '@/lib/outcomes'
import { notify } from '@/lib/toast'
import { chartsQuery, statsQuery, type AdminStats, type Charts } from './api'
import { PageHeader } from '@/components/kit'

ChartJS.register(CategoryScale, LinearScale, BarElement, LineElement, PointElement, ArcElement, Tooltip, Legend)

const STAT_CARDS: { label: string; value: (s: AdminStats) => string }[] = [
  { label: 'Total Calls', value: (s) => s.totalCalls.toLocaleString() },
  { label: 'Total Users', value: (s) => s.totalUsers.toLocaleString() },
  { label: 'Total Balance Used', value: (s) => `$${s.totalUsedBalance.toFixed(2)}` },
  { label: 'Total Call Duration (min)', value: (s) => s.totalCallDuration.toFixed(1) },
  { label: 'Avg Call Duration (min)', value: (s) => s.avgCallDuration.toFixed(1) },
  { label: 'Success Rate (%)', value: (s) => s.successRate.toFixed(1) },
  { label: 'Total Active Users', value: (s) => s.totalActiveUsers.toLocaleString() },
  { label: 'Avg Calls per User', value: (s) => s.avgCallsPerUser.toFixed(1) },
]


const axes = (max?: number): ChartOptions<'bar' | 'line'> => ({
  maintainAspectRatio: false,
  plugins: { legend: { display: false } },
  scales: { y: { beginAtZero: true, max, ticks: { precision: 0 } } },
})
const pieOptions: ChartOptions<'pie'> = { maintainAspectRatio: false, plugins: { legend: { position: 'bottom' } } }
const shortDate = (d: string) => new Date(`${d}T00:00:00`).toLocaleDateString(undefined, { month: 'short', day: 'numeric' })

function charts(c: Charts): { title: string; chart: ReactNode; table: [string, number | string][] }[] {
  const days = c.daily.map((d) => shortDate(d.date))
  const line = (data: number[], color: string, max?: number) => (
    <Line aria-hidden data={{ labels: days, datasets: [{ data, borderColor: color, backgroundColor: color, tension: 0.3, pointRadius: 2 }] }} options={axes(max) as ChartOptions<'line'>} />
  )
  const bar = (labels: string[], data: number[], color: string) => (
    <Bar aria-hidden data={{ labels, datasets: [{ data, backgroundColor: color, borderRadius: 6 }] }} options={axes() as ChartOptions<'bar'>} />
  )
  const statusLabels = c.statuses.map((s) => s.status)
  return [
    { title: 'Calls per Day (last 30 days)', chart: line(c.daily.map((d) => d.calls), CHART_COLORS.calls), table: c.daily.map((d) => [d.date, d.calls]) },
    { title: 'Call Minutes per Day (last 30 days)', chart: line(c.daily.map((d) => d.minutes), CHART_COLORS.minutes), table: c.daily.map((d) => [d.date, d.minutes]) },
    {
      title: 'Call Duration Distribution (min)',
      chart: bar(c.duration_buckets.map((b) => b.label), c.duration_buckets.map((b) => b.calls), CHART_COLORS.durations),
      table: c.duration_buckets.map((b) => [b.label, b.calls]),
    },
    {
      title: 'Call States',
      chart: (
        <Pie
          aria-hidden
          data={{ labels: statusLabels, datasets: [{ data: c.statuses.map((s) => s.calls), backgroundColor: statusLabels.map(statusColor) }] }}
          options={pieOptions}
        />
      ),
      table: c.statuses.map((s) => [s.status, s.calls]),
    },
    {
      title: 'Call Outcomes',
      chart: (
        <Pie
          aria-hidden
          data={{
            labels: c.outcomes.map((o) => OUTCOMES[o.outcome].label),
            datasets: [{ data: c.outcomes.map((o) => o.calls), backgroundColor: c.outcomes.map((o) => OUTCOMES[o.outcome].color) }],
          }}
          options={pieOptions}
        />
      ),
      table: c.outcomes.map((o) => [OUTCOMES[o.outcome].label, o.calls]),
    },
    {
      title: 'Call Disposition',
      chart: (
        <Pie
          aria-hidden
          data={{ labels: ['Recorded', 'Not Recorded'], datasets: [{ data: [c.recording.recorded, c.recording.not_recorded], backgroundColor: [CHART_COLORS.recorded, CHART_COLORS.notRecorded] }] }}
          options={pieOptions}
        />
      ),
      table: [
        ['Recorded', c.recording.recorded],
        ['Not Recorded', c.recording.not_recorded],
      ],
    },
    { title: 'Calls by Weekday', chart: bar(c.weekdays.map((d) => d.day), c.weekdays.map((d) => d.calls), CHART_COLORS.calls), table: c.weekdays.map((d) => [d.day, d.calls]) },
    {
      title: 'Call Minutes by Weekday',
      chart: bar(c.weekdays.map((d) => d.day), c.weekdays.map((d) => d.minutes), CHART_COLORS.minutes),
      table: c.weekdays.map((d) => [d.day, d.minutes]),
    },
    {
      title: 'Calls by Hour of Day',
      chart: bar(c.hours.map((h) => String(h.hour).padStart(2, '0')), c.hours.map((h) => h.calls), CHART_COLORS.hours),
      table: c.hours.map((h) => [String(h.hour), h.calls]),
    },
    {
      title: 'Recording Availability (%, last 30 days)',
      chart: line(c.daily.map((d) => d.recorded_percent), CHART_COLORS.recorded, 100),
      table: c.daily.map((d) => [d.date, d.recorded_percent]),
    },
  ]
}

export function AdminAnalyticsPage() {
  const stats = useQuery(statsQuery())
  const data = useQuery(chartsQuery())
  useEffect(() => {
    if (stats.isError) notify.error('Failed to fetch admin stats', 'Error')
  }, [stats.isError])

  return (
    <div className="space-y-8">
      <PageHeader title="Admin Analysis" subtitle="Every call on the platform, in your time zone." />
      <section aria-labelledby="overall">
        <h2 id="overall" className="text-lg font-semibold text-slate-900">
          Overall Statistics
        </h2>
        <div className="mt-3 grid gap-4 sm:grid-cols-2 xl:grid-cols-4" data-testid="overall-stats">
          {STAT_CARDS.map((card) => (
            <Card key={card.label} className="p-5">
              <p className="text-sm font-medium text-slate-500">{card.label}</p>
              {stats.isPending ? <Skeleton className="mt-3 h-8 w-24" /> : <p className="mt-2 text-2xl font-bold tabular-nums text-slate-900">{stats.data ? card.value(stats.data) : '—'}</p>}
            </Card>
          ))}
        </div>
      </section>
      <section aria-labelledby="call-analysis">
        <h2 id="call-analysis" className="text-lg font-semibold text-slate-900">
          Call Analysis
        </h2>
        {data.isError ? (
          <p role="alert" className="mt-3 text-sm text-rose-600">
            {data.error.message}
          </p>
        ) : (
          <div className="mt-3 grid gap-6 lg:grid-cols-2">
            {data.isPending
              ? Array.from({ length: 9 }, (_, i) => <Skeleton key={i} className="h-72 w-full" />)
              : charts(data.data).map((c) => (
                  <Card key={c.title} className="p-5">
                    <h3 className="text-base font-semibold text-slate-900">{c.title}</h3>
                    {/* The canvas is hidden from screen readers: the wrapper names the chart, the table under it
                        reads its figures. */}
                    <div className="mt-4 h-56" role="img" aria-label={c.title}>
                      {c.chart}
                    </div>
                    <table className="sr-only" data-testid={`chart-${c.title}`}>
                      <tbody>
                        {c.table.map(([k, v]) => (
                          <tr key={k}>
                            <th scope="row">{k}</th>
                            <td>{v}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </Card>
                ))}
          </div>
        )}
      </section>
    </div>
  )
}
