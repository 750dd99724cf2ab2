/** The graph of the flow version a call ran, drawn read-only, with the nodes it visited and the
 * edges it took highlighted (docs/flows.md). Loaded on its own (React Flow is large). */
import { Background, Controls, ReactFlow } from '@xyflow/react'
import '@xyflow/react/dist/style.css'
import { useMemo } from 'react'
import type { FlowGraph, FlowStep } from './api'
import { drawnPath } from './path'

export default function FlowPathGraph({ graph, steps }: { graph: FlowGraph; steps: FlowStep[] }) {
  const { nodes, edges } = useMemo(() => drawnPath(graph, steps), [graph, steps])
  return (
    <div className="h-[28rem] w-full overflow-hidden rounded-lg ring-1 ring-slate-200" data-testid="flow-graph" role="img" aria-label="The flow's graph with the path the call took highlighted">
      <ReactFlow nodes={nodes} edges={edges} fitView fitViewOptions={{ padding: 0.1 }} minZoom={0.1} nodesDraggable={false} nodesConnectable={false} elementsSelectable={false} edgesFocusable={false} nodesFocusable={false} proOptions={{ hideAttribution: true }}>
        <Background gap={16} />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  )
}
