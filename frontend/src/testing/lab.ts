/** A fake lab API for feature tests: an agent's scenarios in a store behind the real routes,
 * runs given as they should read (typed from the generated schema). */
import { http, HttpResponse } from 'msw'
import type { components } from '@/lib/api-schema'
import { url } from './msw'

type ScenarioOut = components['schemas']['ScenarioOut']
type Scenario = components['schemas']['Scenario-Input']
type RunOut = components['schemas']['RunOut']
type ResultOut = components['schemas']['ResultOut']
type Check = components['schemas']['Check']

const STAMP = '2026-11-20T10:00:00Z'

export function makeScenario(fields: Partial<ScenarioOut> & Pick<ScenarioOut, 'id' | 'name'>): ScenarioOut {
  return { agent_id: 'a1', flow_id: null, suite: 'main', callee: { kind: 'person', hello: 'Hello?', lines: ['Yes.', 'Bye.'] }, expect: {}, variables: {}, created_at: STAMP, updated_at: STAMP, ...fields }
}

export function makeResult(fields: Partial<ResultOut> & Pick<ResultOut, 'id' | 'status'>): ResultOut {
  return { position: 0, scenario_id: null, scenario: { name: fields.id, callee: { kind: 'person' } }, call_id: null, checks: [], error: null, started_at: null, finished_at: null, ...fields }
}

export function makeRun(fields: Partial<RunOut> & Pick<RunOut, 'id' | 'status' | 'results'>): RunOut {
  const results = fields.results
  return {
    agent_id: 'a1',
    agent_version: null,
    source: 'app',
    flow_id: null,
    flow_version: null,
    scenario_count: results.length,
    passed_count: results.filter((r) => r.status === 'passed').length,
    failed_count: results.filter((r) => r.status === 'failed' || r.status === 'error').length,
    created_at: STAMP,
    finished_at: null,
    agent_settings: {},
    ...fields,
  }
}

export const failedCheck: Check = {
  expectation: 'says[0]',
  passed: false,
  expected: 'says "our Friday special"',
  found: 'never said',
  evidence: { kind: 'line', index: 2, at: 6.5, text: 'Thanks for your time, goodbye.' },
}
export const passedCheck: Check = { expectation: 'outcome', passed: true, expected: 'completed', found: 'completed', evidence: { kind: 'call', at: 12, text: 'The call ended: completed' } }

/** A run as the runs list gives it (no settings, no results). */
const summary = (run: RunOut) => Object.fromEntries(Object.entries(run).filter(([key]) => key !== 'agent_settings' && key !== 'results'))

/** Handlers over `store` (the agent a1's scenarios) and `runs` (newest first). */
export function labHandlers(store: ScenarioOut[], runs: RunOut[] = []) {
  const missing = (what: string) => HttpResponse.json({ success: false, message: `The ${what} was not found.`, errors: {} }, { status: 404 })
  return [
    http.get(url('agents/:id/lab/scenarios'), () => HttpResponse.json({ success: true, data: store })),
    http.post(url('agents/:id/lab/scenarios'), async ({ request }) => {
      const body = (await request.json()) as Scenario
      const row = makeScenario({ ...body, id: `s${store.length + 1}` })
      store.push(row)
      return HttpResponse.json({ success: true, message: 'Scenario added', data: row }, { status: 201 })
    }),
    http.put(url('lab/scenarios/:id'), async ({ params, request }) => {
      const index = store.findIndex((s) => s.id === params.id)
      if (index < 0) return missing('scenario')
      store[index] = makeScenario({ ...((await request.json()) as Scenario), id: String(params.id) })
      return HttpResponse.json({ success: true, message: 'Scenario saved', data: store[index] })
    }),
    http.delete(url('lab/scenarios/:id'), ({ params }) => {
      const index = store.findIndex((s) => s.id === params.id)
      if (index < 0) return missing('scenario')
      store.splice(index, 1)
      return HttpResponse.json({ success: true, message: 'Scenario deleted', data: params.id })
    }),
    http.post(url('agents/:id/lab/starter'), () => {
      const added = [makeScenario({ id: 'starter-1', name: 'Happy path' }), makeScenario({ id: 'starter-2', name: 'Voicemail', callee: { kind: 'voicemail' }, expect: { outcome: 'voicemail' } })]
      store.push(...added)
      return HttpResponse.json({ success: true, message: `${added.length} scenarios added`, data: added }, { status: 201 })
    }),
    http.get(url('agents/:id/lab/runs'), () => HttpResponse.json({ success: true, data: runs.map(summary), pagination: { current_page: 1, last_page: 1, per_page: 10, total: runs.length } })),
    http.get(url('lab/runs/:id'), ({ params }) => {
      const run = runs.find((r) => r.id === params.id)
      return run ? HttpResponse.json({ success: true, data: run }) : missing('run')
    }),
  ]
}
