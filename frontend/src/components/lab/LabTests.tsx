/** The Tests tab of an agent or a flow (docs/lab.md): the suite, the run opened (`?run=`, its
 * live progress and results), the runs history and a comparison of two runs
 * (`?before=&after=`). The owner decides the API paths; the screens are the same. */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useState } from 'react'
import { useSearchParams } from 'react-router'
import { notify } from '@/lib/toast'
import { labKeys, runsQuery, type LabOwner, type RunOut } from './api'
import { CompareView } from './CompareView'
import { RunPanel } from './RunPanel'
import { RunsHistory } from './RunsHistory'
import { SuitePanel } from './SuitePanel'

export function LabTests({ owner }: { owner: LabOwner }) {
  const client = useQueryClient()
  const [params, setParams] = useSearchParams()
  const [page, setPage] = useState(1)
  // Whether the run shown was opened here (then brought into view), not by the address.
  const [opened, setOpened] = useState(false)
  const runs = useQuery(runsQuery(owner, page))
  const runId = params.get('run')
  const before = params.get('before')
  const after = params.get('after')
  const go = (next: Record<string, string>) => setParams(next, { replace: false })
  const openRun = (id: string) => {
    setOpened(true)
    go({ run: id })
  }
  const compare = (from: string, to: string) => go({ ...(runId ? { run: runId } : {}), before: from, after: to })
  const onFinished = useCallback(() => void client.invalidateQueries({ queryKey: labKeys.runs(owner) }), [client, owner])
  /** The run before this one in the history (on the page shown). */
  const compareWithPrevious = (run: RunOut) => {
    const list = runs.data?.data ?? []
    const index = list.findIndex((r) => r.id === run.id)
    const previous = index >= 0 ? list[index + 1] : undefined
    if (previous) compare(previous.id, run.id)
    else notify.info('No earlier run on this page of the history: pick two runs under Runs to compare them.')
  }
  return (
    <div className="space-y-6" data-testid="lab-tests">
      <SuitePanel owner={owner} onRun={openRun} />
      {before && after && <CompareView key={`${before}|${after}`} before={before} after={after} onClose={() => go(runId ? { run: runId } : {})} />}
      {runId && <RunPanel key={runId} runId={runId} reveal={opened} onClose={() => go({})} onCompare={compareWithPrevious} onFinished={onFinished} />}
      <RunsHistory owner={owner} page={page} onPage={setPage} openRun={runId} onOpen={openRun} onCompare={compare} />
    </div>
  )
}
