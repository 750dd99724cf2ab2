/** The user's saved agents: the agents area edits them, Send Call starts a call from one. */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api'
import type { components } from '@/lib/api-schema'

export type Agent = components['schemas']['AgentOut']
export type AgentSummary = components['schemas']['AgentSummary']
export type AgentBody = components['schemas']['AgentIn']
export type AnalysisField = components['schemas']['AnalysisField']

/** The most agents a user keeps (the server's cap): one page of the picker lists them all. */
export const AGENTS_MAX = 100
export const AGENTS_PAGE_SIZE = 20

export const agentKeys = {
  all: ['agents'] as const,
  one: (agentId: string) => ['agents', 'one', agentId] as const,
}

export const agentsQuery = (page: number, perPage: number = AGENTS_PAGE_SIZE) =>
  queryOptions({
    queryKey: [...agentKeys.all, 'page', page, perPage],
    queryFn: () => unwrap(api.GET('/api/v1/agents', { params: { query: { page, per_page: perPage } } }), 'Failed to load agents'),
  })

export const agentQuery = (agentId: string) =>
  queryOptions({
    queryKey: agentKeys.one(agentId),
    queryFn: async () => (await unwrap(api.GET('/api/v1/agents/{agent_id}', { params: { path: { agent_id: agentId } } }), 'Failed to load the agent')).data,
  })

export const agentsApi = {
  create: (body: AgentBody) => unwrap(api.POST('/api/v1/agents', { body }), 'Failed to save the agent'),
  update: (agentId: string, body: AgentBody) => unwrap(api.PUT('/api/v1/agents/{agent_id}', { params: { path: { agent_id: agentId } }, body }), 'Failed to save the agent'),
  remove: (agentId: string) => unwrap(api.DELETE('/api/v1/agents/{agent_id}', { params: { path: { agent_id: agentId } } }), 'Failed to delete the agent'),
}
