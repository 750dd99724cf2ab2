/** The flows API (/api/v1/flows): the list, one flow, its draft, publishing, export and import,
 * and the "test in text" turns. */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api'
import type { Flow, FlowCreate, FlowExport, FlowGraph, FlowStarter, FlowSummary, Ok, Paged, TextTurnIn, TextTurnOut } from './types'

export const FLOWS_PAGE_SIZE = 20

type Result<T> = Promise<{ data?: T; error?: unknown; response: Response }>
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'
/** The flows routes are not in the generated schema yet: the same client (auth, CSRF, 401),
 * typed here by hand from the contract. */
const raw = api as unknown as Record<Method, (path: string, init?: { params?: { query?: Record<string, unknown> }; body?: unknown }) => Result<unknown>>
const call = <T>(method: Method, path: string, fallback: string, init?: { query?: Record<string, unknown>; body?: unknown }) =>
  unwrap(raw[method](`/api/v1/${path}`, { params: { query: init?.query }, body: init?.body }) as Result<T>, fallback)

export const flowKeys = {
  all: ['flows'] as const,
  one: (flowId: string) => ['flows', 'one', flowId] as const,
  starters: ['flows', 'starters'] as const,
}

export const flowsQuery = (page: number) =>
  queryOptions({
    queryKey: [...flowKeys.all, 'page', page],
    queryFn: () => call<Paged<FlowSummary>>('GET', 'flows', 'Failed to load flows', { query: { page, per_page: FLOWS_PAGE_SIZE } }),
  })

export const startersQuery = queryOptions({
  queryKey: flowKeys.starters,
  queryFn: async () => (await call<Ok<FlowStarter[]>>('GET', 'flows/starters', 'Failed to load the starter flows')).data,
  staleTime: Infinity,
})

export const flowQuery = (flowId: string) =>
  queryOptions({
    queryKey: flowKeys.one(flowId),
    queryFn: async () => (await call<Ok<Flow>>('GET', `flows/${flowId}`, 'Failed to load the flow')).data,
  })

export const flowsApi = {
  create: (body: FlowCreate) => call<Ok<Flow>>('POST', 'flows', 'Failed to create the flow', { body }),
  save: (flowId: string, body: { name: string; description: string; draft: FlowGraph }) => call<Ok<Flow>>('PUT', `flows/${flowId}`, 'Failed to save the flow', { body }),
  publish: (flowId: string) => call<Ok<Flow>>('POST', `flows/${flowId}/publish`, 'Failed to publish the flow'),
  remove: (flowId: string) => call<Ok<{ id: string }>>('DELETE', `flows/${flowId}`, 'Failed to delete the flow'),
  exportFile: (flowId: string) => call<FlowExport>('GET', `flows/${flowId}/export`, 'Failed to export the flow'),
  importFile: (body: FlowExport) => call<Ok<Flow>>('POST', 'flows/import', 'Failed to import the flow', { body }),
  test: (flowId: string, body: TextTurnIn) => call<Ok<TextTurnOut>>('POST', `flows/${flowId}/test`, 'The test turn failed', { body }),
}
