/** The graph drawn with React Flow: nodes to drag and select, handles to connect, edges with
 * their labels. The document stays the editor's: the canvas only reports what the user did. */
import { Background, MarkerType, ReactFlow, type Edge, type EdgeChange, type NodeChange, type Connection } from '@xyflow/react'
import '@xyflow/react/dist/style.css'
import './canvas.css'
import { useCallback, useMemo, useState } from 'react'
import { edgeTitle } from './graph'
import { FlowNodeCard, type CanvasNode } from './FlowNodeCard'
import type { FlowGraph, Position, Problem } from './types'

export type Selection = { type: 'node' | 'edge'; id: string } | null

const NODE_TYPES = { flow: FlowNodeCard }
const EDGE_COLOUR: Record<string, string> = { next: '#64748b', answer: '#7c3aed', condition: '#d97706', fallback: '#e11d48' }

interface CanvasProps {
  graph: FlowGraph
  problems: Problem[]
  selection: Selection
  testPath: { current: string | null; visited: string[] }
  onSelect: (selection: Selection) => void
  onConnect: (source: string, target: string) => void
  onMoveStart: () => void
  onMove: (moved: Map<string, Position>, dragging: boolean) => void
  onDelete: (selection: NonNullable<Selection>) => void
}

export function FlowCanvas({ graph, problems, selection, testPath, onSelect, onConnect, onMoveStart, onMove, onDelete }: CanvasProps) {
  const [measured, setMeasured] = useState<Record<string, { width: number; height: number }>>({})
  const nodes = useMemo<CanvasNode[]>(
    () =>
      graph.nodes.map((node) => ({
        id: node.id,
        type: 'flow',
        position: { x: node.position?.x ?? 0, y: node.position?.y ?? 0 },
        measured: measured[node.id],
        selected: selection?.type === 'node' && selection.id === node.id,
        ariaLabel: `${node.kind} node ${node.name}`,
        data: {
          node,
          isStart: node.id === graph.start_node_id,
          problems: problems.filter((p) => p.node_id === node.id).map((p) => p.message),
          current: testPath.current === node.id,
          visited: testPath.visited.includes(node.id),
        },
      })),
    [graph, problems, selection, testPath, measured],
  )
  const edges = useMemo<Edge[]>(
    () =>
      (graph.edges ?? []).map((edge) => {
        const kind = edge.kind ?? 'next'
        const wrong = problems.some((p) => p.edge_id === edge.id)
        const colour = wrong ? '#e11d48' : EDGE_COLOUR[kind]
        const selected = selection?.type === 'edge' && selection.id === edge.id
        return {
          id: edge.id,
          source: edge.source,
          target: edge.target,
          label: edgeTitle(edge),
          selected,
          ariaLabel: `Edge ${edgeTitle(edge)} from ${edge.source} to ${edge.target}`,
          markerEnd: { type: MarkerType.ArrowClosed, color: colour },
          style: { stroke: colour, strokeWidth: selected ? 3 : 1.5, strokeDasharray: kind === 'fallback' ? '6 4' : undefined },
          labelStyle: { fontSize: 11, fontWeight: 600, fill: '#0f172a' },
          labelBgStyle: { fill: selected ? '#e0e7ff' : '#ffffff' },
          labelBgPadding: [4, 2] as [number, number],
        }
      }),
    [graph.edges, problems, selection],
  )

  const onNodesChange = useCallback(
    (changes: NodeChange<CanvasNode>[]) => {
      const moved = new Map<string, Position>()
      let dragging = false
      const sizes: Record<string, { width: number; height: number }> = {}
      for (const change of changes) {
        if (change.type === 'position' && change.position) {
          moved.set(change.id, change.position)
          dragging ||= Boolean(change.dragging)
        }
        if (change.type === 'dimensions' && change.dimensions) sizes[change.id] = change.dimensions
        if (change.type === 'select' && change.selected) onSelect({ type: 'node', id: change.id })
      }
      if (moved.size) onMove(moved, dragging)
      if (Object.keys(sizes).length) setMeasured((m) => ({ ...m, ...sizes }))
    },
    [onMove, onSelect],
  )
  const onEdgesChange = useCallback(
    (changes: EdgeChange[]) => {
      for (const change of changes) if (change.type === 'select' && change.selected) onSelect({ type: 'edge', id: change.id })
    },
    [onSelect],
  )

  return (
    <ReactFlow<CanvasNode, Edge>
      nodes={nodes}
      edges={edges}
      nodeTypes={NODE_TYPES}
      onNodesChange={onNodesChange}
      onEdgesChange={onEdgesChange}
      onConnect={(c: Connection) => c.source && c.target && onConnect(c.source, c.target)}
      onNodeDragStart={onMoveStart}
      onPaneClick={() => onSelect(null)}
      onDelete={({ nodes: gone, edges: cut }) => {
        const first = gone[0] ? { type: 'node' as const, id: gone[0].id } : cut[0] ? { type: 'edge' as const, id: cut[0].id } : null
        if (first) onDelete(first)
      }}
      deleteKeyCode={['Delete', 'Backspace']}
      fitView
      minZoom={0.2}
      maxZoom={2}
      proOptions={{ hideAttribution: true }}
      aria-label="Flow canvas"
    >
      <Background gap={20} color="#e2e8f0" />
    </ReactFlow>
  )
}
