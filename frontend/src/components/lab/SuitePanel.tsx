/** The suite: its scenarios grouped by suite name (name, callee kind, how many expectations),
 * each opened in the editor, run alone or deleted; a whole group or every scenario run at once;
 * the starter suite added. A refused run shows as the server words it. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { FlaskConical, Play, Plus, Sparkles, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { ConfirmDialog, Section } from '@/components/panels'
import { Button } from '@/components/ui/button'
import { Skeleton, Spinner } from '@/components/ui/card'
import { FormError } from '@/components/ui/field'
import { ApiError, messageOf } from '@/lib/api'
import { notify } from '@/lib/toast'
import { labApi, labKeys, scenariosQuery, type LabOwner, type RunIn, type ScenarioOut } from './api'
import { DEFAULT_SUITE } from './draft'
import { expectationCount, groups } from './present'
import { useStartRun } from './useStartRun'
import { ScenarioEditor } from './ScenarioEditor'



const refusal = (error: unknown) => (error instanceof ApiError ? (error.field('scenarios') ?? error.field('suite') ?? error.field('flow_id') ?? error.message) : messageOf(error, 'Failed to start the run'))

export function SuitePanel({ owner, onRun }: { owner: LabOwner; onRun: (runId: string) => void }) {
  const client = useQueryClient()
  const scenarios = useQuery(scenariosQuery(owner))
  const [editing, setEditing] = useState<{ scenario: ScenarioOut | null; suite: string } | null>(null)
  const [deleting, setDeleting] = useState<ScenarioOut | null>(null)
  const run = useStartRun(owner, onRun)
  const starter = useMutation({
    mutationFn: () => labApi.starter(owner),
    onSuccess: (result) => {
      void client.invalidateQueries({ queryKey: labKeys.scenarios(owner) })
      notify.success(result.message)
    },
    onError: (error) => notify.error(messageOf(error, 'Failed to add the starter suite')),
  })
  const remove = useMutation({
    mutationFn: (id: string) => labApi.remove(id),
    onSuccess: (result) => {
      void client.invalidateQueries({ queryKey: labKeys.scenarios(owner) })
      notify.success(result.message)
      setDeleting(null)
    },
    onError: (error) => notify.error(messageOf(error, 'Failed to delete the scenario')),
  })
  const list = scenarios.data ?? []
  const actions = (
    <div className="flex flex-wrap gap-2">
      <Button variant="secondary" onClick={() => starter.mutate()} disabled={starter.isPending}>
        {starter.isPending ? <Spinner className="h-4 w-4" /> : <Sparkles className="h-4 w-4" aria-hidden />} Add starter suite
      </Button>
      <Button variant="secondary" onClick={() => setEditing({ scenario: null, suite: DEFAULT_SUITE })}>
        <Plus className="h-4 w-4" aria-hidden /> New scenario
      </Button>
      <Button onClick={() => run.mutate({})} disabled={run.isPending || list.length === 0}>
        {run.isPending ? <Spinner className="h-4 w-4" /> : <Play className="h-4 w-4" aria-hidden />} Run suite
      </Button>
    </div>
  )
  return (
    <Section id="lab-scenarios" title="Scenarios" description="Simulated callees and what must hold of the call to each: every scenario is a real sandbox call, judged from its record." action={actions}>
      <div className="space-y-4 p-5">
        {run.isError && <FormError message={refusal(run.error)} />}
        {scenarios.isPending ? (
          <div aria-busy className="space-y-2">
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
          </div>
        ) : scenarios.isError ? (
          <p role="alert" className="text-sm text-rose-600">
            {messageOf(scenarios.error, 'Failed to load the scenarios')}
          </p>
        ) : list.length === 0 ? (
          <EmptySuite />
        ) : (
          groups(list).map(([suite, rows]) => <SuiteGroup key={suite} suite={suite} rows={rows} busy={run.isPending} onRun={(body) => run.mutate(body)} onOpen={(scenario) => setEditing({ scenario, suite })} onDelete={setDeleting} onAdd={() => setEditing({ scenario: null, suite })} />)
        )}
      </div>
      {editing && <ScenarioEditor key={editing.scenario?.id ?? 'new'} owner={owner} scenario={editing.scenario} suite={editing.suite} onClose={() => setEditing(null)} />}
      <ConfirmDialog open={deleting !== null} title="Delete scenario" message={`Delete "${deleting?.name ?? ''}"? Its past results stay in their runs.`} confirm="Delete" busy={remove.isPending} onConfirm={() => deleting && remove.mutate(deleting.id)} onCancel={() => setDeleting(null)} />
    </Section>
  )
}

function EmptySuite() {
  return (
    <div className="flex flex-col items-center gap-2 py-8 text-center" data-testid="lab-empty">
      <FlaskConical className="h-8 w-8 text-slate-400" aria-hidden />
      <p className="font-medium text-slate-800">No scenarios yet</p>
      <p className="max-w-md text-sm text-slate-500">Add the starter suite (the happy path, a decline, a voicemail, an opt-out and more, written from the settings) or write a scenario of your own.</p>
    </div>
  )
}

function SuiteGroup({ suite, rows, busy, onRun, onOpen, onDelete, onAdd }: { suite: string; rows: ScenarioOut[]; busy: boolean; onRun: (body: RunIn & { suite?: string }) => void; onOpen: (s: ScenarioOut) => void; onDelete: (s: ScenarioOut) => void; onAdd: () => void }) {
  return (
    <section aria-labelledby={`suite-${suite}`} className="rounded-xl ring-1 ring-slate-200" data-testid={`suite-${suite}`}>
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-100 px-4 py-2">
        <h3 id={`suite-${suite}`} className="text-sm font-semibold text-slate-900">
          {suite} <span className="font-normal text-slate-500">({rows.length})</span>
        </h3>
        <div className="flex gap-1">
          <Button variant="ghost" size="sm" onClick={onAdd} aria-label={`New scenario in ${suite}`}>
            <Plus className="h-4 w-4" aria-hidden /> Add
          </Button>
          <Button variant="ghost" size="sm" onClick={() => onRun({ suite })} disabled={busy} aria-label={`Run suite ${suite}`}>
            <Play className="h-4 w-4" aria-hidden /> Run {suite}
          </Button>
        </div>
      </div>
      <ul className="divide-y divide-slate-100" aria-label={`Scenarios in ${suite}`}>
        {rows.map((s) => (
          <li key={s.id} className="flex flex-wrap items-center gap-3 px-4 py-2.5" data-testid="scenario-row">
            <button type="button" className="min-w-0 flex-1 truncate text-left text-sm font-medium text-indigo-700 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500" onClick={() => onOpen(s)}>
              {s.name}
            </button>
            <span className="rounded-full bg-slate-100 px-2 py-0.5 font-mono text-xs text-slate-700">{s.callee.kind ?? 'person'}</span>
            <span className="text-xs text-slate-500">
              {expectationCount(s)} {expectationCount(s) === 1 ? 'expectation' : 'expectations'}
            </span>
            <Button variant="ghost" size="sm" onClick={() => onRun({ scenario_ids: [s.id] })} disabled={busy} aria-label={`Run ${s.name}`}>
              <Play className="h-4 w-4" aria-hidden /> Run
            </Button>
            <Button variant="ghost" size="icon" onClick={() => onDelete(s)} aria-label={`Delete ${s.name}`}>
              <Trash2 className="h-4 w-4 text-rose-600" aria-hidden />
            </Button>
          </li>
        ))}
      </ul>
    </section>
  )
}
