/** The flows API (/api/v1/flows): the list, one flow, its draft, publishing, export and import,
 * and the "test in text" turns. */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api'
import type { FlowCreate, FlowExport, FlowGraph, TextTurnIn } from './types'

export const FLOWS_PAGE_SIZE = 20

export const flowKeys = {
  all: ['flows'] as const,
  one: (flowId: string) => ['flows', 'one', flowId] as const,
  starters: ['flows', 'starters'] as const,
}

const byId = (flowId: string) => ({ params: { path: { flow_id: flowId } } })

export const flowsQuery = (page: number) =>
  queryOptions({
    queryKey: [...flowKeys.all, 'page', page],
    queryFn: () => unwrap(api.GET('/api/v1/flows', { params: { query: { page, per_page: FLOWS_PAGE_SIZE } } }), 'Failed to load flows'),
  })

export const startersQuery = queryOptions({
  queryKey: flowKeys.starters,
  queryFn: async () => (await unwrap(api.GET('/api/v1/flows/starters'), 'Failed to load the starter flows')).data,
  staleTime: Infinity,
})

export const flowQuery = (flowId: string) =>
  queryOptions({
    queryKey: flowKeys.one(flowId),
    queryFn: async () => (await unwrap(api.GET('/api/v1/flows/{flow_id}', byId(flowId)), 'Failed to load the flow')).data,
  })

export const flowsApi = {
  create: (body: FlowCreate) => unwrap(api.POST('/api/v1/flows', { body }), 'Failed to create the flow'),
  save: (flowId: string, body: { name: string; description: string; draft: FlowGraph }) => unwrap(api.PUT('/api/v1/flows/{flow_id}', { ...byId(flowId), body }), 'Failed to save the flow'),
  publish: (flowId: string) => unwrap(api.POST('/api/v1/flows/{flow_id}/publish', byId(flowId)), 'Failed to publish the flow'),
  remove: (flowId: string) => unwrap(api.DELETE('/api/v1/flows/{flow_id}', byId(flowId)), 'Failed to delete the flow'),
  exportFile: (flowId: string) => unwrap(api.GET('/api/v1/flows/{flow_id}/export', byId(flowId)), 'Failed to export the flow'),
  importFile: (body: FlowExport) => unwrap(api.POST('/api/v1/flows/import', { body }), 'Failed to import the flow'),
  test: (flowId: string, body: TextTurnIn) => unwrap(api.POST('/api/v1/flows/{flow_id}/test', { ...byId(flowId), body }), 'The test turn failed'),
}
