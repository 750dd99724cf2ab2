/** A fake flows API for feature tests: an in-memory store behind the contract's routes. The
 * draft's problems come from `problemsOf` (the test decides what the server would find). */
import { http, HttpResponse } from 'msw'
import type { Flow, FlowGraph, FlowStarter, Problem, TextTurnIn, TextTurnOut } from '@/features/flows/types'
import { url } from './msw'

const STAMP = '2026-11-20T10:00:00Z'

export const STARTERS: FlowStarter[] = [
  { key: 'appointment', name: 'Appointment confirmation', description: 'Confirm, or reschedule to a new time.' },
  { key: 'lead_qualification', name: 'Lead qualification', description: 'Budget, need and timing.' },
  { key: 'payment_reminder', name: 'Payment reminder', description: 'A friendly reminder of a payment due.' },
  { key: 'survey', name: 'Survey', description: 'Three short questions.' },
]

export const BLANK: FlowGraph = { start_node_id: 'start', variables: [], nodes: [{ id: 'start', kind: 'say', name: 'Greeting', text: 'Hello!', position: { x: 0, y: 0 } }], edges: [] }

export function makeFlow(fields: Partial<Flow> & Pick<Flow, 'id' | 'name'>): Flow {
  return { description: '', draft: BLANK, problems: [], published_version: null, has_unpublished_changes: true, created_at: STAMP, updated_at: STAMP, ...fields }
}

interface Options {
  problemsOf?: (graph: FlowGraph) => Problem[]
  /** Answers a test turn (the runner is the server's). */
  turn?: (body: TextTurnIn) => TextTurnOut
}

export function flowHandlers(store: Flow[], { problemsOf = () => [], turn }: Options = {}) {
  const missing = () => HttpResponse.json({ success: false, message: 'Flow not found.', errors: {} }, { status: 404 })
  const find = (id: unknown) => store.find((f) => f.id === id)
  const summary = (f: Flow) => ({ id: f.id, name: f.name, description: f.description, published_version: f.published_version, has_unpublished_changes: f.has_unpublished_changes, node_count: f.draft.nodes.length, created_at: f.created_at, updated_at: f.updated_at })
  const created = (name: string, description: string, draft: FlowGraph) => {
    const flow = makeFlow({ id: `flow-${store.length + 1}`, name, description, draft, problems: problemsOf(draft) })
    store.unshift(flow)
    return HttpResponse.json({ success: true, data: flow }, { status: 201 })
  }
  return [
    http.get(url('flows'), ({ request }) => {
      const query = new URL(request.url).searchParams
      const page = Number(query.get('page') ?? 1)
      const perPage = Number(query.get('per_page') ?? 20)
      return HttpResponse.json({ success: true, data: store.slice((page - 1) * perPage, page * perPage).map(summary), pagination: { current_page: page, last_page: Math.max(1, Math.ceil(store.length / perPage)), per_page: perPage, total: store.length } })
    }),
    http.get(url('flows/starters'), () => HttpResponse.json({ success: true, data: STARTERS })),
    http.get(url('flows/:id'), ({ params }) => {
      const flow = find(params.id)
      return flow ? HttpResponse.json({ success: true, data: flow }) : missing()
    }),
    http.post(url('flows'), async ({ request }) => {
      const body = (await request.json()) as { name: string; description?: string; starter?: string | null }
      const draft: FlowGraph = body.starter ? { ...BLANK, nodes: [{ ...BLANK.nodes[0]!, name: `${body.starter} greeting` }] } : BLANK
      return created(body.name, body.description ?? '', draft)
    }),
    http.post(url('flows/import'), async ({ request }) => {
      const body = (await request.json()) as { format?: string; name: string; description?: string; graph: FlowGraph }
      if (body.format !== 'callwright-flow/1') return HttpResponse.json({ success: false, message: 'The given data was invalid.', errors: { format: ["The format must be 'callwright-flow/1'"] } }, { status: 422 })
      return created(body.name, body.description ?? '', body.graph)
    }),
    http.put(url('flows/:id'), async ({ params, request }) => {
      const flow = find(params.id)
      if (!flow) return missing()
      const body = (await request.json()) as { name: string; description: string; draft: FlowGraph }
      Object.assign(flow, { name: body.name, description: body.description, draft: body.draft, problems: problemsOf(body.draft), has_unpublished_changes: true })
      return HttpResponse.json({ success: true, data: flow })
    }),
    http.post(url('flows/:id/publish'), ({ params }) => {
      const flow = find(params.id)
      if (!flow) return missing()
      if (flow.problems.length) return HttpResponse.json({ success: false, message: `Fix ${flow.problems.length} problems before publishing`, errors: { draft: flow.problems.map((p) => p.message) } }, { status: 422 })
      Object.assign(flow, { published_version: (flow.published_version ?? 0) + 1, has_unpublished_changes: false })
      return HttpResponse.json({ success: true, data: flow })
    }),
    http.get(url('flows/:id/export'), ({ params }) => {
      const flow = find(params.id)
      return flow ? HttpResponse.json({ format: 'callwright-flow/1', name: flow.name, description: flow.description, graph: flow.draft }) : missing()
    }),
    http.delete(url('flows/:id'), ({ params }) => {
      const index = store.findIndex((f) => f.id === params.id)
      if (index < 0) return missing()
      store.splice(index, 1)
      return HttpResponse.json({ success: true, data: { id: params.id } })
    }),
    http.post(url('flows/:id/test'), async ({ request }) => {
      if (!turn) return HttpResponse.json({ success: false, message: 'Not Found', errors: {} }, { status: 404 })
      return HttpResponse.json({ success: true, data: turn((await request.json()) as TextTurnIn) })
    }),
  ]
}
