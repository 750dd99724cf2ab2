/** The agent lab's web API (docs/lab.md), for an owner: an agent's suite
 * (`agents/{id}/lab/...`) or a flow's (`flows/{id}/lab/...`). Runs, results and comparisons are
 * read by their own ids whoever owns them. */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api'
import type { components } from '@/lib/api-schema'

export type Scenario = components['schemas']['Scenario-Input']
export type ScenarioOut = components['schemas']['ScenarioOut']
export type Callee = components['schemas']['Callee-Input']
export type CalleeOut = components['schemas']['Callee-Output']
export type Expectations = components['schemas']['Expectations']
export type Check = components['schemas']['Check']
export type Evidence = components['schemas']['Evidence']
export type RunOut = components['schemas']['RunOut']
export type RunSummary = components['schemas']['RunSummary']
export type ResultOut = components['schemas']['ResultOut']
export type RunComparison = components['schemas']['RunComparison']
export type CheckChange = components['schemas']['CheckChange']
export type RunIn = components['schemas']['RunIn']
export type ResultStatus = ResultOut['status']
export type ResultCall = components['schemas']['ResultCall']

/** Whose suite: an agent's or a flow's. */
export interface LabOwner {
  kind: 'agent' | 'flow'
  id: string
}

export const RUNS_PAGE_SIZE = 10
/** How often a running run is read again. */
export const POLL_MS = 1000

export const labKeys = {
  all: ['lab'] as const,
  scenarios: (owner: LabOwner) => ['lab', owner.kind, owner.id, 'scenarios'] as const,
  runs: (owner: LabOwner) => ['lab', owner.kind, owner.id, 'runs'] as const,
  run: (runId: string) => ['lab', 'run', runId] as const,
  compare: (before: string, after: string) => ['lab', 'compare', before, after] as const,
  call: (resultId: string) => ['lab', 'result-call', resultId] as const,
}

/** The owner's suite paths: an agent's or a flow's (the same bodies and answers). */
const agentPath = (id: string) => ({ params: { path: { agent_id: id } } })
const flowPath = (id: string) => ({ params: { path: { flow_id: id } } })

const listScenarios = (owner: LabOwner) =>
  owner.kind === 'agent' ? api.GET('/api/v1/agents/{agent_id}/lab/scenarios', agentPath(owner.id)) : api.GET('/api/v1/flows/{flow_id}/lab/scenarios', flowPath(owner.id))

const listRuns = (owner: LabOwner, page: number) => {
  const query = { page, per_page: RUNS_PAGE_SIZE }
  return owner.kind === 'agent'
    ? api.GET('/api/v1/agents/{agent_id}/lab/runs', { params: { path: { agent_id: owner.id }, query } })
    : api.GET('/api/v1/flows/{flow_id}/lab/runs', { params: { path: { flow_id: owner.id }, query } })
}

export const scenariosQuery = (owner: LabOwner) =>
  queryOptions({
    queryKey: labKeys.scenarios(owner),
    queryFn: async () => (await unwrap(listScenarios(owner), 'Failed to load the scenarios')).data,
  })

export const runsQuery = (owner: LabOwner, page: number) =>
  queryOptions({
    queryKey: [...labKeys.runs(owner), page],
    queryFn: () => unwrap(listRuns(owner, page), 'Failed to load the runs'),
  })

/** A run, read again every second while it is running. */
export const runQuery = (runId: string) =>
  queryOptions({
    queryKey: labKeys.run(runId),
    queryFn: async () => (await unwrap(api.GET('/api/v1/lab/runs/{run_id}', { params: { path: { run_id: runId } } }), 'Failed to load the run')).data,
    refetchInterval: (query) => (query.state.data?.status === 'running' ? POLL_MS : false),
  })

export const compareQuery = (before: string, after: string) =>
  queryOptions({
    queryKey: labKeys.compare(before, after),
    queryFn: async () => (await unwrap(api.GET('/api/v1/lab/runs/{run_id}/compare/{other_id}', { params: { path: { run_id: before, other_id: after } } }), 'Failed to compare the runs')).data,
  })

/** A result's call as the judge read it, with its recording's address (404 while it has none). */
export const resultCallQuery = (resultId: string) =>
  queryOptions({
    queryKey: labKeys.call(resultId),
    queryFn: async () => (await unwrap(api.GET('/api/v1/lab/results/{result_id}/call', { params: { path: { result_id: resultId } } }), 'Failed to load the call')).data,
    retry: false,
  })

export const labApi = {
  create: (owner: LabOwner, body: Scenario) =>
    unwrap(owner.kind === 'agent' ? api.POST('/api/v1/agents/{agent_id}/lab/scenarios', { ...agentPath(owner.id), body }) : api.POST('/api/v1/flows/{flow_id}/lab/scenarios', { ...flowPath(owner.id), body }), 'Failed to save the scenario'),
  update: (scenarioId: string, body: Scenario) => unwrap(api.PUT('/api/v1/lab/scenarios/{scenario_id}', { params: { path: { scenario_id: scenarioId } }, body }), 'Failed to save the scenario'),
  remove: (scenarioId: string) => unwrap(api.DELETE('/api/v1/lab/scenarios/{scenario_id}', { params: { path: { scenario_id: scenarioId } } }), 'Failed to delete the scenario'),
  starter: (owner: LabOwner) => unwrap(owner.kind === 'agent' ? api.POST('/api/v1/agents/{agent_id}/lab/starter', agentPath(owner.id)) : api.POST('/api/v1/flows/{flow_id}/lab/starter', flowPath(owner.id)), 'Failed to add the starter suite'),
  run: (owner: LabOwner, body: RunIn) =>
    unwrap(owner.kind === 'agent' ? api.POST('/api/v1/agents/{agent_id}/lab/runs', { ...agentPath(owner.id), body }) : api.POST('/api/v1/flows/{flow_id}/lab/runs', { ...flowPath(owner.id), body }), 'Failed to start the run'),
}

/** Where an owner's Tests tab is (`?run=` opens a run on it). */
export function testsPath(owner: LabOwner, runId?: string): string {
  const base = `/dashboard/${owner.kind === 'agent' ? 'agents' : 'flows'}/${encodeURIComponent(owner.id)}/tests`
  return runId ? `${base}?run=${encodeURIComponent(runId)}` : base
}
