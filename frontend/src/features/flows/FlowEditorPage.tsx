/** The flow editor (/dashboard/flows/:flowId): the canvas with its toolbar, the side panel (node
 * list, the selection's form, Add edge), the problems, and "test in text". */
import { useQuery } from '@tanstack/react-query'
import { ReactFlowProvider, useReactFlow } from '@xyflow/react'
import { ArrowLeft } from 'lucide-react'
import { useState } from 'react'
import { Link, useParams } from 'react-router'
import { PageHeader } from '@/components/kit'
import { OwnerTabs } from '@/components/lab/OwnerTabs'
import { Button } from '@/components/ui/button'
import { Card, Skeleton } from '@/components/ui/card'
import { messageOf } from '@/lib/api'
import { flowQuery } from './api'
import { AddEdgeForm, EdgePanel } from './EdgePanel'
import { EditorActions } from './EditorActions'
import { EditorToolbar } from './EditorToolbar'
import { FlowCanvas } from './FlowCanvas'
import { FlowDetails } from './FlowDetails'
import { LeaveGuard } from './LeaveGuard'
import { NodePanel } from './NodePanel'
import { NodeList, ProblemsPanel } from './SidePanels'
import { TestPanel, type TestPath } from './TestPanel'
import type { Flow, NodeKind, Problem } from './types'
import { useFlowEditor } from './useFlowEditor'

const back = (
  <Button variant="secondary" asChild>
    <Link to="/dashboard/flows">
      <ArrowLeft className="h-4 w-4" aria-hidden /> All flows
    </Link>
  </Button>
)

export function FlowEditorPage() {
  const { flowId = '' } = useParams()
  const flow = useQuery(flowQuery(flowId))
  if (flow.isError)
    return (
      <div className="space-y-6">
        <PageHeader title="Flow" action={back} />
        <Card className="p-6">
          <p role="alert" className="text-sm text-rose-600">
            {messageOf(flow.error, 'Failed to load the flow')}
          </p>
        </Card>
      </div>
    )
  if (flow.isPending)
    return (
      <div className="space-y-4" aria-busy>
        <PageHeader title="Flow" subtitle="Draw the call: nodes say, ask, decide and act; edges are the ways on." action={back} />
        <OwnerTabs owner={{ kind: 'flow', id: flowId }} current="settings" />
        <Skeleton className="h-[60vh] w-full" />
      </div>
    )
  return (
    <ReactFlowProvider>
      <FlowEditor key={flow.data.id} initial={flow.data} />
    </ReactFlowProvider>
  )
}

function FlowEditor({ initial }: { initial: Flow }) {
  const editor = useFlowEditor(initial)
  const { flow, doc, graph, dirty, selection, setSelection, history, actions } = editor
  const [testPath, setTestPath] = useState<TestPath>({ current: null, visited: [] })
  const view = useReactFlow()
  const node = selection?.type === 'node' ? graph.nodes.find((n) => n.id === selection.id) : undefined
  const edge = selection?.type === 'edge' ? graph.edges?.find((e) => e.id === selection.id) : undefined
  const add = (kind: NodeKind) => {
    const added = actions.addNode(kind)
    void view.setCenter((added.position?.x ?? 0) + 112, (added.position?.y ?? 0) + 40, { zoom: view.getZoom(), duration: 200 })
  }
  const focus = (problem: Problem) => {
    const edgeOf = graph.edges?.find((e) => e.id === problem.edge_id)
    const target = graph.nodes.find((n) => n.id === (edgeOf?.source ?? problem.node_id))
    setSelection(edgeOf ? { type: 'edge', id: edgeOf.id } : target ? { type: 'node', id: target.id } : null)
    if (target) void view.setCenter((target.position?.x ?? 0) + 112, (target.position?.y ?? 0) + 40, { zoom: 1.1, duration: 200 })
  }
  return (
    <div className="space-y-4">
      <PageHeader title={doc.name} subtitle={doc.description || 'Draw the call: nodes say, ask, decide and act; edges are the ways on.'} action={back} />
      <OwnerTabs owner={{ kind: 'flow', id: flow.id }} current="settings" />
      <EditorActions flow={flow} editor={editor} />
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-4">
          <Card className="overflow-hidden">
            <EditorToolbar onAdd={add} canUndo={history.canUndo} canRedo={history.canRedo} onUndo={history.undo} onRedo={history.redo} />
            <div className="h-[68vh] min-h-[460px] bg-slate-50" data-testid="flow-canvas">
              <FlowCanvas graph={graph} problems={flow.problems} selection={selection} testPath={testPath} onSelect={setSelection} onConnect={actions.connect} onMoveStart={actions.moveStart} onMove={actions.move} onDelete={actions.remove} />
            </div>
          </Card>
          <div className="grid gap-4 md:grid-cols-2">
            <Card className="p-4">
              <ProblemsPanel problems={flow.problems} stale={dirty} onFocus={focus} />
            </Card>
            <Card className="p-4">
              <TestPanel flowId={flow.id} variables={(graph.variables ?? []).map((v) => v.name)} stale={dirty} onPath={setTestPath} />
            </Card>
          </div>
        </div>
        <aside className="min-w-0 space-y-4" aria-label="Inspector">
          <Card className="p-4">
            <NodeList graph={graph} selection={selection} onSelect={setSelection} />
          </Card>
          <Card className="p-4">
            {node ? (
              <NodePanel key={JSON.stringify(node)} node={node} isStart={node.id === graph.start_node_id} onApply={actions.applyNode} onMakeStart={() => actions.makeStart(node.id)} onDelete={() => actions.remove({ type: 'node', id: node.id })} />
            ) : edge ? (
              <EdgePanel key={JSON.stringify(edge)} edge={edge} graph={graph} onApply={actions.applyEdge} onDelete={() => actions.remove({ type: 'edge', id: edge.id })} />
            ) : (
              <FlowDetails key={JSON.stringify([doc.name, doc.description, graph.variables])} doc={doc} onApply={actions.applyDoc} />
            )}
          </Card>
          <Card className="p-4">
            <AddEdgeForm key={`${graph.nodes.map((n) => n.id).join()}|${graph.edges?.length ?? 0}|${node?.id ?? ''}`} graph={graph} from={node?.id ?? null} onAdd={actions.addEdge} />
          </Card>
        </aside>
      </div>
      <LeaveGuard dirty={dirty} />
    </div>
  )
}
