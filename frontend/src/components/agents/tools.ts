/** An agent's custom tools (docs/actions.md, Tools): list, add, replace, delete, test. Header
 * values are write-only: the server answers their names alone. */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api'
import type { components } from '@/lib/api-schema'

export type AgentTool = components['schemas']['ToolOut']
export type AgentToolBody = components['schemas']['ToolIn']
export type ToolTestAnswer = components['schemas']['ToolTestOut']
export type ToolMethod = AgentTool['method']

export const TOOL_METHODS: ToolMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']
export const WAITING_LINE = 'One moment while I check that.'
export const TOOL_TIMEOUT_MAX = 30

export const toolKeys = { of: (agentId: string) => ['agents', 'tools', agentId] as const }

const path = (agentId: string) => ({ params: { path: { agent_id: agentId } } })
const onePath = (agentId: string, toolId: number) => ({ params: { path: { agent_id: agentId, tool_id: toolId } } })

export const toolsQuery = (agentId: string) =>
  queryOptions({
    queryKey: toolKeys.of(agentId),
    queryFn: async () => (await unwrap(api.GET('/api/v1/agents/{agent_id}/tools', path(agentId)), 'Failed to load the tools')).data,
  })

export const toolsApi = {
  add: (agentId: string, body: AgentToolBody) => unwrap(api.POST('/api/v1/agents/{agent_id}/tools', { ...path(agentId), body }), 'Failed to save the tool'),
  replace: (agentId: string, toolId: number, body: AgentToolBody) =>
    unwrap(api.PUT('/api/v1/agents/{agent_id}/tools/{tool_id}', { ...onePath(agentId, toolId), body }), 'Failed to save the tool'),
  remove: (agentId: string, toolId: number) => unwrap(api.DELETE('/api/v1/agents/{agent_id}/tools/{tool_id}', onePath(agentId, toolId)), 'Failed to delete the tool'),
  test: async (agentId: string, toolId: number, args: Record<string, unknown>) =>
    (await unwrap(api.POST('/api/v1/agents/{agent_id}/tools/{tool_id}/test', { ...onePath(agentId, toolId), body: { arguments: args, variables: {} } }), 'Failed to test the tool')).data,
}
