/** The flow's graph as React Flow draws it, the call's path highlighted: the nodes visited (and
 * where a taken edge leads) and the edges taken. */
import type { Edge, Node } from '@xyflow/react'
import type { FlowGraph, FlowStep } from './api'

const VISITED = { background: '#ede9fe', border: '2px solid #7c3aed', color: '#2e1065', fontWeight: 600 }
const OTHER = { background: '#fff', border: '1px solid #cbd5e1', color: '#64748b' }

export function drawnPath(graph: FlowGraph, steps: FlowStep[]): { nodes: Node[]; edges: Edge[] } {
  const visited = new Set(steps.map((s) => s.node_id))
  const taken = new Set(steps.map((s) => s.edge_id).filter((id): id is string => Boolean(id)))
  // Where a taken edge leads is visited too (the call's last node may log no step of its own).
  for (const edge of graph.edges ?? []) if (taken.has(edge.id)) visited.add(edge.target)
  const nodes: Node[] = graph.nodes.map((node, index) => ({
    id: node.id,
    position: { x: node.position?.x ?? (index % 4) * 220, y: node.position?.y ?? Math.floor(index / 4) * 120 },
    data: { label: node.kind === 'global' ? `${node.name} (global)` : node.name },
    style: { ...(visited.has(node.id) ? VISITED : OTHER), fontSize: 12, width: 170 },
    className: visited.has(node.id) ? 'flow-visited' : undefined,
    draggable: false,
    connectable: false,
    selectable: false,
  }))
  const edges: Edge[] = (graph.edges ?? []).map((edge) => ({
    id: edge.id,
    source: edge.source,
    target: edge.target,
    label: edge.label || undefined,
    animated: taken.has(edge.id),
    style: taken.has(edge.id) ? { stroke: '#7c3aed', strokeWidth: 3 } : { stroke: '#cbd5e1' },
    className: taken.has(edge.id) ? 'flow-taken' : undefined,
  }))
  return { nodes, edges }
}
