/** The sandbox network's number plan (/dashboard/sandbox): which number reaches which simulated
 * callee, read from the server (the network's own table), so it cannot drift from what calls do. */
import { useQuery } from '@tanstack/react-query'
import { Link } from 'react-router'
import { PageHeader, TableHead, TableState, TD } from '@/components/kit'
import { Card } from '@/components/ui/card'
import { isOutcome, OUTCOMES } from '@/lib/outcomes'
import { modeQuery, sandboxPlanQuery, type SandboxNumber } from './api'

const outcomeLabel = (value: string) => (isOutcome(value) ? OUTCOMES[value].label : value)

function Rows({ rows }: { rows: SandboxNumber[] }) {
  return (
    <>
      {rows.map((row) => (
        <tr key={row.number} className="align-top">
          <td className={`${TD} whitespace-nowrap font-mono`}>{row.number}</td>
          <td className={TD}>{row.label}</td>
          <td className={TD}>
            {row.lines.length === 0 ? (
              <span className="text-slate-500">(says nothing)</span>
            ) : (
              <ol className="space-y-0.5">
                {row.lines.map((line, i) => (
                  <li key={i}>“{line}”</li>
                ))}
              </ol>
            )}
          </td>
          <td className={`${TD} whitespace-nowrap`}>{outcomeLabel(row.outcome)}</td>
        </tr>
      ))}
    </>
  )
}

function PlanTable({ title, description, rows, loading, error, testId }: { title: string; description: string; rows: SandboxNumber[]; loading: boolean; error: string | null; testId: string }) {
  const labels = ['Number', 'Who answers', 'What they say', 'Usual outcome']
  return (
    <Card className="overflow-hidden">
      <div className="border-b border-slate-200 px-5 py-4">
        <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
        <p className="mt-0.5 text-sm text-slate-500">{description}</p>
      </div>
      <div className="overflow-x-auto">
        <table className="w-full min-w-[720px]" data-testid={testId}>
          <TableHead labels={labels} widths={{ Number: 'w-40', 'Usual outcome': 'w-36' }} />
          <tbody className="divide-y divide-slate-100">
            <TableState columns={labels.length} rows={4} loading={loading} error={error} empty="No numbers." hasRows={rows.length > 0} />
            <Rows rows={rows} />
          </tbody>
        </table>
      </div>
    </Card>
  )
}

export function SandboxNumbersPage() {
  const plan = useQuery(sandboxPlanQuery())
  const mode = useQuery(modeQuery())
  const error = plan.isError ? plan.error.message : null
  return (
    <div className="space-y-6">
      <PageHeader title="Sandbox numbers" subtitle="On the sandbox network no real phone rings: the number you dial picks who answers." />
      {mode.data && mode.data.carrier !== 'sandbox' && (
        <p role="status" className="rounded-xl border border-slate-200 bg-white px-4 py-3 text-sm text-slate-700">
          This server places real calls (carrier: {mode.data.carrier}): these numbers only apply on the sandbox network.
        </p>
      )}
      <p className="text-sm text-slate-600">
        Dial any of these from{' '}
        <Link to="/dashboard/send-call" className="font-medium text-indigo-600 hover:underline">
          Send Call
        </Link>
        , at any hour: every callee here is simulated, so the legal calling hours (which bind real calls) do not hold a sandbox call back; a call placed outside them says once what a real carrier would have done. The callee speaks with its own voice, and listens: it answers after each of the agent&apos;s turns.
        {plan.data && (
          <>
            {' '}
            Sandbox calls come from <span className="font-mono">{plan.data.from_number}</span>.
          </>
        )}
      </p>
      <PlanTable
        title="Numbers with a fixed behaviour"
        description="Like a phone company's test numbers."
        rows={plan.data?.special ?? []}
        loading={plan.isPending}
        error={error}
        testId="sandbox-special"
      />
      {/* Drawn once the plan is here: below a table still loading it would be pushed down
          (layout shift) when the first table's rows arrive. */}
      {!plan.isPending && (
        <PlanTable
          title="Any other valid number: a person who talks"
          description={`The sum of the number's digits, modulo ${plan.data?.scenarios.length ?? 5}, picks one of these scenarios; each row shows an example number.`}
          rows={plan.data?.scenarios ?? []}
          loading={plan.isPending}
          error={error}
          testId="sandbox-scenarios"
        />
      )}
    </div>
  )
}
