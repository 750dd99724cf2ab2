/** Pure changes to a flow document: new nodes and edges with fresh ids, edits, deletions. The
 * editor's history keeps each result, so none of these mutate their input. */
import type { EdgeKind, FlowEdge, FlowGraph, FlowNode, NodeKind, Position } from './types'

/** The flow being edited: its name and description beside the graph (one undo history). */
export interface FlowDoc {
  name: string
  description: string
  graph: FlowGraph
}

export const NODE_KINDS: { kind: NodeKind; label: string; hint: string }[] = [
  { kind: 'say', label: 'Say', hint: 'A line the agent says, then on' },
  { kind: 'ask', label: 'Ask', hint: 'A question; each expected answer is an edge' },
  { kind: 'decide', label: 'Decide', hint: 'No speech: edges with conditions on variables' },
  { kind: 'action', label: 'Action', hint: 'Transfer, press keys, a tool, end the call, voicemail' },
  { kind: 'global', label: 'Global', hint: 'Fires from anywhere on an intent (a person, opt-out...)' },
]

const NEW_NODE: { [K in NodeKind]: Omit<Extract<FlowNode, { kind: K }>, 'id' | 'position'> } = {
  say: { kind: 'say', name: 'Say', text: 'Thanks for taking my call.' },
  ask: { kind: 'ask', name: 'Ask', text: 'Does that work for you?', retry_text: "Sorry, I didn't catch that.", max_tries: 2, capture: [] },
  decide: { kind: 'decide', name: 'Decide' },
  action: { kind: 'action', name: 'End call', action: { type: 'end_call', text: 'Thank you for your time. Goodbye.' } },
  global: { kind: 'global', name: 'Asks for a person', intent: 'person', text: 'Let me note that.', then: 'return' },
}

/** `prefix_N` with the smallest N not taken. */
export function freshId(prefix: string, taken: Iterable<string>): string {
  const used = new Set(taken)
  let n = 1
  while (used.has(`${prefix}_${n}`)) n += 1
  return `${prefix}_${n}`
}

/** Where a new node goes: below `anchor` (the selected node, else the lowest one), moved right
 * until it covers no other node. */
export function freePlace(graph: FlowGraph, anchorId?: string | null): Position {
  const at = (n: FlowNode) => ({ x: n.position?.x ?? 0, y: n.position?.y ?? 0 })
  const lowest = graph.nodes.reduce<FlowNode | undefined>((low, n) => (!low || at(n).y > at(low).y ? n : low), undefined)
  const anchor = graph.nodes.find((n) => n.id === anchorId) ?? lowest
  const place = anchor ? { x: at(anchor).x, y: at(anchor).y + 170 } : { x: 0, y: 0 }
  while (graph.nodes.some((n) => Math.abs(at(n).x - place.x) < 250 && Math.abs(at(n).y - place.y) < 130)) place.x += 270
  return place
}

/** A new node of `kind`, in a free place below `anchorId` (see freePlace). */
export function withNewNode(graph: FlowGraph, kind: NodeKind, anchorId?: string | null): { graph: FlowGraph; node: FlowNode } {
  const node = { ...NEW_NODE[kind], id: freshId(kind, graph.nodes.map((n) => n.id)), position: freePlace(graph, anchorId) } as FlowNode
  return { graph: { ...graph, nodes: [...graph.nodes, node] }, node }
}

/** The edge kind a new edge out of `source` gets: an answer out of an ask (its fallback once it
 * has answers), a condition out of a decide (likewise), next otherwise. */
export function defaultEdgeKind(graph: FlowGraph, sourceId: string): EdgeKind {
  const source = graph.nodes.find((n) => n.id === sourceId)
  const out = (graph.edges ?? []).filter((e) => e.source === sourceId)
  if (source?.kind === 'ask' || source?.kind === 'decide') {
    const wanted = source.kind === 'ask' ? 'answer' : 'condition'
    return out.some((e) => e.kind === wanted) && !out.some((e) => e.kind === 'fallback') ? 'fallback' : wanted
  }
  return 'next'
}

export function withNewEdge(graph: FlowGraph, fields: Omit<FlowEdge, 'id'>): { graph: FlowGraph; edge: FlowEdge } {
  const edge: FlowEdge = { ...fields, id: freshId('edge', (graph.edges ?? []).map((e) => e.id)) }
  return { graph: { ...graph, edges: [...(graph.edges ?? []), edge] }, edge }
}

export function withNode(graph: FlowGraph, node: FlowNode): FlowGraph {
  return { ...graph, nodes: graph.nodes.map((n) => (n.id === node.id ? node : n)) }
}

export function withEdge(graph: FlowGraph, edge: FlowEdge): FlowGraph {
  return { ...graph, edges: (graph.edges ?? []).map((e) => (e.id === edge.id ? edge : e)) }
}

/** Without the node and every edge to or from it. */
export function withoutNode(graph: FlowGraph, nodeId: string): FlowGraph {
  return {
    ...graph,
    nodes: graph.nodes.filter((n) => n.id !== nodeId),
    edges: (graph.edges ?? []).filter((e) => e.source !== nodeId && e.target !== nodeId),
  }
}

export function withoutEdge(graph: FlowGraph, edgeId: string): FlowGraph {
  return { ...graph, edges: (graph.edges ?? []).filter((e) => e.id !== edgeId) }
}

export function withPositions(graph: FlowGraph, moved: Map<string, Position>): FlowGraph {
  return { ...graph, nodes: graph.nodes.map((n) => (moved.has(n.id) ? { ...n, position: moved.get(n.id) } : n)) }
}

/** A short description of an edge for lists and labels: its label, else its kind. */
export function edgeTitle(edge: FlowEdge): string {
  return edge.label?.trim() || (edge.kind ?? 'next')
}
