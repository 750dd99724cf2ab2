/** The editor's state and every change it can make: the document with its undo history, the
 * selection, the saved copy (what "unsaved changes" compares with), saving and publishing. */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { useNavigate } from 'react-router'
import { offerSuiteRun } from '@/components/lab/offer'
import { ApiError, messageOf } from '@/lib/api'
import { saveBlob } from '@/lib/download'
import { notify } from '@/lib/toast'
import { flowKeys, flowsApi } from './api'
import type { Selection } from './FlowCanvas'
import { defaultEdgeKind, withEdge, withNewEdge, withNewNode, withNode, withoutEdge, withoutNode, withPositions, type FlowDoc } from './graph'
import { useHistory } from './history'
import type { Flow, FlowEdge, FlowNode, NodeKind, Position } from './types'

const docOf = (flow: Flow): FlowDoc => ({ name: flow.name, description: flow.description, graph: flow.draft })

export function useFlowEditor(initial: Flow) {
  const client = useQueryClient()
  const navigate = useNavigate()
  const [flow, setFlow] = useState(initial)
  const [saved, setSaved] = useState<FlowDoc>(() => docOf(initial))
  const history = useHistory(saved)
  const { doc, change, dispatch } = history
  const [picked, setSelection] = useState<Selection>(null)
  const graph = doc.graph
  // A selection whose node or edge an undo took away selects nothing.
  const selection = picked && (picked.type === 'node' ? graph.nodes.some((n) => n.id === picked.id) : (graph.edges ?? []).some((e) => e.id === picked.id)) ? picked : null
  const dirty = doc !== saved
  const setGraph = (next: FlowDoc['graph']) => change({ ...doc, graph: next })

  const took = (result: { data: Flow }, message: string) => {
    setFlow(result.data)
    client.setQueryData(flowKeys.one(result.data.id), result.data)
    void client.invalidateQueries({ queryKey: flowKeys.all, exact: false, predicate: (q) => q.queryKey[1] === 'page' })
    notify.success(message)
  }
  const save = useMutation({
    mutationFn: (current: FlowDoc) => flowsApi.save(flow.id, { name: current.name, description: current.description, draft: current.graph }),
    onSuccess: (result, current) => {
      setSaved(current)
      const count = result.data.problems.length
      took(result, count ? `Draft saved, with ${count} problem${count === 1 ? '' : 's'} to fix before publishing` : 'Draft saved')
    },
    onError: (error) => {
      const detail = error instanceof ApiError ? Object.entries(error.errors).map(([k, v]) => `${k}: ${v[0]}`)[0] : undefined
      notify.error(detail ?? messageOf(error, 'Failed to save the flow'), messageOf(error, 'Failed to save the flow'))
    },
  })
  const publish = useMutation({
    mutationFn: () => flowsApi.publish(flow.id),
    onSuccess: (result) => {
      took(result, `Published version ${result.data.published_version}`)
      // The flow's suite runs on its published version: publishing is the save it tests.
      void offerSuiteRun(client, { kind: 'flow', id: result.data.id }, navigate, `published version ${result.data.published_version}`)
    },
    onError: (error) => notify.error(messageOf(error, 'Failed to publish the flow')),
  })
  const exportFile = useMutation({
    mutationFn: () => flowsApi.exportFile(flow.id),
    onSuccess: (file) => saveBlob(new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' }), `${flow.name.replace(/[^A-Za-z0-9_-]+/g, '-').toLowerCase() || 'flow'}.json`),
    onError: (error) => notify.error(messageOf(error, 'Failed to export the flow')),
  })

  const actions = {
    addNode: (kind: NodeKind) => {
      const { graph: next, node } = withNewNode(graph, kind, selection?.type === 'node' ? selection.id : null)
      setGraph(next)
      setSelection({ type: 'node', id: node.id })
      return node
    },
    connect: (source: string, target: string) => {
      const { graph: next, edge } = withNewEdge(graph, { source, target, kind: defaultEdgeKind(graph, source), label: '' })
      setGraph(next)
      setSelection({ type: 'edge', id: edge.id })
    },
    addEdge: (fields: Omit<FlowEdge, 'id'>) => {
      const { graph: next, edge } = withNewEdge(graph, fields)
      setGraph(next)
      notify.success(`Edge added from ${fields.source} to ${fields.target}`)
      return edge
    },
    applyNode: (node: FlowNode) => setGraph(withNode(graph, node)),
    applyEdge: (edge: FlowEdge) => setGraph(withEdge(graph, edge)),
    applyDoc: (next: FlowDoc) => change(next),
    makeStart: (nodeId: string) => setGraph({ ...graph, start_node_id: nodeId }),
    remove: (target: NonNullable<Selection>) => {
      if (target.type === 'node' && target.id === graph.start_node_id) return notify.error('Make another node the start before deleting this one', 'The start node stays')
      if (target.type === 'node' && graph.nodes.length === 1) return notify.error('A flow keeps at least one node')
      setGraph(target.type === 'node' ? withoutNode(graph, target.id) : withoutEdge(graph, target.id))
      setSelection(null)
    },
    moveStart: () => dispatch({ type: 'checkpoint' }),
    /** A drag previews (its start was the undo step); a move from the keyboard is one step. */
    move: (moved: Map<string, Position>, dragging: boolean) => {
      const same = [...moved].every(([id, p]) => graph.nodes.some((n) => n.id === id && n.position?.x === p.x && n.position?.y === p.y))
      if (!same) dispatch(dragging ? { type: 'preview', doc: { ...doc, graph: withPositions(graph, moved) } } : { type: 'change', doc: { ...doc, graph: withPositions(graph, moved) } })
    },
  }
  useUndoKeys(history.undo, history.redo, () => dirty && !save.isPending && save.mutate(doc))
  return { flow, doc, graph, dirty, selection, setSelection, history, actions, save, publish, exportFile }
}

/** Ctrl+Z undoes, Ctrl+Shift+Z (or Ctrl+Y) redoes, Ctrl+S saves: anywhere but in a text field,
 * which keeps its own undo. */
function useUndoKeys(undo: () => void, redo: () => void, save: () => void) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey)) return
      const key = event.key.toLowerCase()
      if (key === 's') {
        event.preventDefault()
        return save()
      }
      const target = event.target as HTMLElement | null
      if (target?.closest('input, textarea, select, [contenteditable="true"]')) return
      if (key === 'z' || key === 'y') {
        event.preventDefault()
        if (key === 'y' || event.shiftKey) redo()
        else undo()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [undo, redo, save])
}
