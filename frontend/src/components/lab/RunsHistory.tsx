/** The owner's runs, newest first, paged: status, passed / failed counts, when, where it was
 * started (app, api, cli), the agent's version and the flow's. A run opens in the run panel;
 * two runs picked are compared. */
import { useQuery } from '@tanstack/react-query'
import { GitCompare } from 'lucide-react'
import { useState } from 'react'
import { Select } from '@/components/kit'
import { Pager } from '@/components/Pager'
import { Section, Table } from '@/components/panels'
import { TD } from '@/components/kit'
import { Button } from '@/components/ui/button'
import { messageOf } from '@/lib/api'
import { cn } from '@/lib/cn'
import { formatDateTime } from '@/lib/format'
import { runsQuery, type LabOwner, type RunSummary } from './api'
import { LabStatus } from './LabStatus'
import { agentVersionOf, runLabel } from './present'


export function RunsHistory({ owner, page, onPage, openRun, onOpen, onCompare }: { owner: LabOwner; page: number; onPage: (page: number) => void; openRun: string | null; onOpen: (runId: string) => void; onCompare: (before: string, after: string) => void }) {
  const runs = useQuery(runsQuery(owner, page))
  const rows = runs.data?.data ?? []
  return (
    <Section id="lab-runs" title="Runs" description="Every run of the suite, the newest first.">
      <Table testId="lab-runs" className="min-w-[640px]" labels={['Status', 'Results', 'When', 'Source', 'Version', '']} loading={runs.isPending} error={runs.isError ? messageOf(runs.error, 'Failed to load the runs') : null} empty="No run yet: run the suite to see its results here." skeletonRows={3}>
        {rows.map((run) => (
          <tr key={run.id} className={cn(run.id === openRun && 'bg-indigo-50/60')} data-testid="run-row">
            <td className={TD}>
              <LabStatus status={run.status} />
            </td>
            <td className={cn(TD, 'tabular-nums')}>
              <span className="text-emerald-700">{run.passed_count} passed</span>, <span className={run.failed_count ? 'font-semibold text-rose-700' : ''}>{run.failed_count} failed</span> of {run.scenario_count}
            </td>
            <td className={TD}>{formatDateTime(run.created_at)}</td>
            <td className={TD}>{run.source}</td>
            <td className={cn(TD, 'text-xs')}>
              {[agentVersionOf(run) && `agent ${agentVersionOf(run)}`, run.flow_version !== null && `flow v${run.flow_version}`].filter(Boolean).join(', ') || '–'}
            </td>
            <td className={cn(TD, 'text-right')}>
              <Button variant="secondary" size="sm" onClick={() => onOpen(run.id)} aria-label={`Open the run of ${formatDateTime(run.created_at)}`}>
                Open
              </Button>
            </td>
          </tr>
        ))}
      </Table>
      {runs.data && runs.data.pagination.last_page > 1 && <Pager page={page} lastPage={runs.data.pagination.last_page} onPage={onPage} busy={runs.isFetching} />}
      {rows.length > 1 && <ComparePicker runs={rows} onCompare={onCompare} />}
    </Section>
  )
}

/** Two selects (the earlier run and the later) and Compare. */
function ComparePicker({ runs, onCompare }: { runs: RunSummary[]; onCompare: (before: string, after: string) => void }) {
  const [before, setBefore] = useState(runs[1]?.id ?? '')
  const [after, setAfter] = useState(runs[0]?.id ?? '')
  const options = runs.map((run) => (
    <option key={run.id} value={run.id}>
      {runLabel(run)}
    </option>
  ))
  return (
    <form className="flex flex-wrap items-end gap-3 border-t border-slate-200 px-5 py-4" aria-label="Compare two runs" onSubmit={(e) => { e.preventDefault(); onCompare(before, after) }}>
      <label className="min-w-0 flex-1 space-y-1 text-sm font-medium text-slate-700">
        <span>Before</span>
        <Select value={before} onChange={(e) => setBefore(e.target.value)}>
          {options}
        </Select>
      </label>
      <label className="min-w-0 flex-1 space-y-1 text-sm font-medium text-slate-700">
        <span>After</span>
        <Select value={after} onChange={(e) => setAfter(e.target.value)}>
          {options}
        </Select>
      </label>
      <Button type="submit" variant="secondary" disabled={!before || !after || before === after}>
        <GitCompare className="h-4 w-4" aria-hidden /> Compare
      </Button>
    </form>
  )
}
