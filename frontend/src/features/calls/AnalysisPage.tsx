/** Call Analysis (spec sections 2 and 9): six bar charts by weekday, Monday first. The figures
 * come from GET user/{id}/analysis (computed in SQL, in the browser's time zone). Successful is
 * the server's one definition (only a completed call); the failed calls are stacked by outcome,
 * each outcome in its own colour (`lib/outcomes`), and no other chart wears an outcome's colour. */
import { useQuery } from '@tanstack/react-query'
import { BarElement, CategoryScale, Chart as ChartJS, Legend, LinearScale, Tooltip, type ChartData, type ChartOptions } from 'chart.js'
import { Bar } from 'react-chartjs-2'
import { Card, Skeleton } from '@/components/ui/card'
import { CHART_COLORS, OUTCOMES, outcomeSeries } from '@/lib/outcomes'
import { getUser } from '@/lib/session'
import { analysisQuery, type WeekdayStats } from './api'

ChartJS.register(CategoryScale, LinearScale, BarElement, Tooltip, Legend)

interface ChartSpec {
  title: string
  value: (d: WeekdayStats) => number
  step: number
  color: string
  unit?: string
  /** Stacked by outcome, one colour each, with a legend. */
  byOutcome?: (d: WeekdayStats) => Partial<Record<string, number>>
}

const CHARTS: ChartSpec[] = [
  { title: 'Total Calls by Day', value: (d) => d.totalCalls, step: 10, color: CHART_COLORS.calls },
  { title: 'Total Call Duration by Day', value: (d) => d.totalDuration, step: 5, color: CHART_COLORS.minutes, unit: 's' },
  { title: 'Successful Calls by Day', value: (d) => d.successfulCalls, step: 2, color: OUTCOMES.completed.color },
  { title: 'Failed Calls by Day', value: (d) => d.failedCalls, step: 1, color: OUTCOMES.failed.color, byOutcome: (d) => d.failedByOutcome },
  { title: 'Average Call Duration by Day', value: (d) => d.averageDuration, step: 0.5, color: CHART_COLORS.average, unit: 's' },
  { title: 'Total Used Balance by Day', value: (d) => d.usedBalance, step: 0.2, color: CHART_COLORS.money, unit: '$' },
]

function chartData(chart: ChartSpec, days: WeekdayStats[]): ChartData<'bar'> {
  const labels = days.map((d) => d.day)
  const { byOutcome } = chart
  if (!byOutcome) return { labels, datasets: [{ label: chart.title, data: days.map(chart.value), backgroundColor: chart.color, borderRadius: 6 }] }
  return { labels, datasets: outcomeSeries(days.map(byOutcome)).map((s) => ({ label: s.label, data: s.data, backgroundColor: s.color })) }
}

export function AnalysisPage() {
  const userId = getUser()?.id ?? 0
  const analysis = useQuery(analysisQuery(userId))
  if (analysis.isError) console.error('Call analysis could not be loaded:', analysis.error)
  const days = analysis.data ?? []
  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Call Analysis</h1>
        <p className="mt-1 text-sm text-slate-500">Track Your Call Patterns</p>
      </header>
      <div className="grid gap-6 lg:grid-cols-2">
        {CHARTS.map((chart) => (
          <Card key={chart.title} className="p-5">
            <h2 className="text-base font-semibold text-slate-900">{chart.title}</h2>
            <div className="mt-4 h-56">
              {analysis.isPending ? (
                <Skeleton className="h-full w-full" />
              ) : (
                <Bar
                  aria-label={chart.title}
                  role="img"
                  data={chartData(chart, days)}
                  options={options(chart)}
                />
              )}
            </div>
            <table className="sr-only" data-testid={`chart-${chart.title}`}>
              <tbody>
                {days.map((d) => (
                  <tr key={d.day}>
                    <th>{d.day}</th>
                    <td>{chart.value(d)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Card>
        ))}
      </div>
    </div>
  )
}

function options(chart: ChartSpec): ChartOptions<'bar'> {
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: { duration: 800 },
    plugins: { legend: { display: Boolean(chart.byOutcome), position: 'bottom' }, tooltip: { enabled: true } },
    scales: { x: { stacked: Boolean(chart.byOutcome) }, y: { beginAtZero: true, stacked: Boolean(chart.byOutcome), ticks: { stepSize: chart.step } } },
  }
}
