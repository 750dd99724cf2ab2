/** The user's conversation flows as the call-side screens need them (docs/flows.md): the list
 * to pick one from (only a published flow runs calls) and a published version's graph. */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api'
import type { components } from '@/lib/api-schema'

export type FlowSummary = components['schemas']['FlowSummary']
export type FlowGraph = components['schemas']['FlowGraph']
export type FlowStep = components['schemas']['FlowNodeChange']

/** One page of the picker (the server's largest page). */
export const FLOWS_PICKER_SIZE = 100

export const flowsPickerQuery = queryOptions({
  queryKey: ['flows', 'picker'],
  queryFn: () => unwrap(api.GET('/api/v1/flows', { params: { query: { page: 1, per_page: FLOWS_PICKER_SIZE } } }), 'Failed to load the flows'),
})

export const flowVersionQuery = (flowId: string, version: number) =>
  queryOptions({
    queryKey: ['flows', 'one', flowId, 'version', version],
    queryFn: async () =>
      (await unwrap(api.GET('/api/v1/flows/{flow_id}/versions/{version}', { params: { path: { flow_id: flowId, version } } }), 'Failed to load the flow')).data,
  })

/** Why a flow cannot be picked (null: it can): a call runs a published version only. */
export function unpickable(flow: FlowSummary): string | null {
  return flow.published_version === null ? 'not published yet' : null
}

/** The line a node change makes in a transcript: "-> Confirm (answer 'Yes' by the phrase ...)". */
export function stepText(step: FlowStep): string {
  return `-> ${step.node_name} (${step.reason})`
}

/** A flow call's steps placed among its transcript lines: `[i]` holds the steps before line i
 * (the last entry: those after every line), by when each happened. The call's log has an event
 * (category "flow") for each step, in order, with its wall-clock time: that time is used when
 * the counts agree; else `at` (seconds after the answer, on the call's clock, which a sped-up
 * sandbox call runs faster). A step with no time goes after the lines. */
export function stepsAmongLines(steps: FlowStep[], lines: { created_at: string }[], answeredAt: string | null, events: { category: string; created_at: string }[] = []): FlowStep[][] {
  const slots: FlowStep[][] = Array.from({ length: lines.length + 1 }, () => [])
  const logged = events.filter((e) => e.category === 'flow').map((e) => Date.parse(e.created_at))
  const answered = answeredAt ? Date.parse(answeredAt) : NaN
  steps.forEach((step, i) => {
    const when = logged.length === steps.length ? (logged[i] ?? NaN) : step.at === null ? NaN : answered + step.at * 1000
    const index = Number.isNaN(when) ? -1 : lines.findIndex((line) => Date.parse(line.created_at) > when)
    slots[index === -1 ? lines.length : index]!.push(step)
  })
  return slots
}

/** Every variable captured along the path (a later capture of the same name wins). */
export function capturedAlong(steps: FlowStep[]): [string, string][] {
  const all: Record<string, string> = {}
  for (const step of steps) Object.assign(all, step.captured)
  return Object.entries(all)
}

/** The variables a call gives the flow (Send Call asks for each): the flow's own, but those an
 * ask node captures or a tool's answer fills during the call. */
export function givenVariables(graph: FlowGraph): string[] {
  const filled = new Set<string>()
  for (const node of graph.nodes) {
    if (node.kind === 'ask') for (const capture of node.capture ?? []) filled.add(capture.variable)
    if (node.kind === 'action' && node.action.type === 'tool' && node.action.result_variable) filled.add(node.action.result_variable)
  }
  return (graph.variables ?? []).map((v) => v.name).filter((name) => !filled.has(name))
}
