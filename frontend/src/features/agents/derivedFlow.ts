/** The agent's derived flow (GET /agents/{id}/derived-flow) read as a script: the greeting,
 * each question with the answers it expects and what the agent says to each, the lines said
 * whatever the question (globals), and the voicemail message. */
import { queryOptions } from '@tanstack/react-query'
import { agentKeys } from '@/components/agents/api'
import { api, unwrap } from '@/lib/api'
import type { components } from '@/lib/api-schema'

type Schemas = components['schemas']
export type DerivedFlow = Schemas['DerivedFlow']
type Graph = Schemas['FlowGraph']
type Node = Graph['nodes'][number]

export interface Answer {
  label: string
  /** What the agent says to it. */
  says: string
  /** The question it goes on to (none: the call ends). */
  then: string | null
}
export interface Question {
  id: string
  text: string
  /** When it is asked, if not in order ("after an unclear answer"). */
  note: string | null
  answers: Answer[]
}
export interface Script {
  greeting: string | null
  questions: Question[]
  always: { label: string; says: string; then?: string | null }[]
  voicemail: string | null
}

const GLOBALS: Record<Schemas['GlobalNode']['intent'], string> = {
  opt_out: 'Asks not to be called again',
  robot: 'Asks whether this is a robot',
  person: 'Asks for a person',
  busy: 'Is busy now',
}

const lineOf = (node: Node): string => {
  if (node.kind === 'say' || node.kind === 'ask' || node.kind === 'global') return node.text ?? ''
  if (node.kind === 'action' && 'text' in node.action) return node.action.text ?? ''
  return ''
}

/** The lines said from `nodeId` until a question (its text is `then`) or the end. */
function follow(graph: Graph, nodeId: string): { says: string; then: string | null } {
  const said: string[] = []
  let id: string | undefined = nodeId
  for (let moves = 0; id !== undefined && moves < 50; moves += 1) {
    const node = graph.nodes.find((n) => n.id === id)
    if (!node) break
    if (node.kind === 'ask') return { says: said.join(' '), then: node.text }
    said.push(lineOf(node))
    id = (graph.edges ?? []).find((e) => e.source === node.id && (e.kind ?? 'next') === 'next')?.target
  }
  return { says: said.filter(Boolean).join(' '), then: null }
}

const OWN = ['Yes', 'No', 'Anything else']
const same = (a: Answer, b: Answer) => a.label === b.label && a.says === b.says && a.then === b.then

/** The script: answers every question meets alike (voicemail, wrong person...) are listed once,
 * under "whatever the question", not under each question. */
export function scriptOf(graph: Graph): Script {
  const start = graph.nodes.find((n) => n.id === graph.start_node_id)
  const asked = graph.nodes.flatMap((node) =>
    node.kind === 'ask'
      ? [
          {
            id: node.id,
            text: node.text,
            note: /\(([^)]+)\)$/.exec(node.name)?.[1] ?? null,
            answers: (graph.edges ?? [])
              .filter((e) => e.source === node.id)
              .map((e) => ({ label: e.label || (e.kind === 'fallback' ? 'Anything else' : e.id), ...follow(graph, e.target) })),
          },
        ]
      : [],
  )
  // Yes, no and anything else stay with each question: they are what moves the call along.
  const shared = asked.length > 1 ? (asked[0]?.answers ?? []).filter((a) => !OWN.includes(a.label) && asked.every((q) => q.answers.some((b) => same(a, b)))) : []
  const questions = asked.map((q) => ({ ...q, answers: q.answers.filter((a) => !shared.some((b) => same(a, b))) }))
  const globals = graph.nodes.flatMap((node) => (node.kind === 'global' ? [{ label: GLOBALS[node.intent], says: follow(graph, node.id).says }] : []))
  const voicemail = graph.nodes.find((n) => n.kind === 'action' && n.action.type === 'voicemail')
  return {
    greeting: start?.kind === 'say' ? (start.text ?? '') : null,
    questions,
    always: [...shared.filter((a) => a.label !== 'Voicemail'), ...globals],
    voicemail: voicemail ? lineOf(voicemail) : null,
  }
}

/** Under the agent's keys, so saving the agent (which invalidates them) refreshes it. */
export const derivedFlowQuery = (agentId: string) =>
  queryOptions({
    queryKey: [...agentKeys.one(agentId), 'derived-flow'],
    queryFn: async () =>
      (await unwrap(api.GET('/api/v1/agents/{agent_id}/derived-flow', { params: { path: { agent_id: agentId } } }), 'Failed to load what the agent will say')).data,
  })

export const editAsFlow = (agentId: string) =>
  unwrap(api.POST('/api/v1/agents/{agent_id}/derived-flow', { params: { path: { agent_id: agentId } } }), 'Failed to make a flow of the prompt')
