import { describe, expect, it } from 'vitest'
import { defaultEdgeKind, freePlace, freshId, withNewEdge, withNewNode, withoutNode, type FlowDoc } from './graph'
import { HISTORY_LIMIT, historyReducer, type History } from './history'
import type { FlowGraph } from './types'

const graph: FlowGraph = {
  start_node_id: 'start',
  nodes: [
    { id: 'start', kind: 'ask', name: 'Confirm', text: 'OK?', position: { x: 0, y: 0 } },
    { id: 'bye', kind: 'action', name: 'Bye', action: { type: 'end_call' }, position: { x: 0, y: 170 } },
  ],
  edges: [{ id: 'edge_1', source: 'start', target: 'bye', kind: 'answer', intent: 'yes' }],
}

describe('flow document changes', () => {
  it('gives fresh ids and a new edge the kind its source needs next', () => {
    expect(freshId('edge', ['edge_1', 'edge_3'])).toBe('edge_2')
    expect(defaultEdgeKind(graph, 'start')).toBe('fallback') // the ask has an answer, no fallback yet
    expect(defaultEdgeKind(graph, 'bye')).toBe('next')
    const { graph: withFallback, edge } = withNewEdge(graph, { source: 'start', target: 'bye', kind: 'fallback' })
    expect(edge.id).toBe('edge_2')
    expect(defaultEdgeKind(withFallback, 'start')).toBe('answer')
    expect(graph.edges).toHaveLength(1) // the input is never changed
  })

  it('places a new node below its anchor, clear of the others', () => {
    expect(freePlace(graph, 'start')).toEqual({ x: 270, y: 170 }) // below start is taken by bye
    expect(freePlace(graph, null)).toEqual({ x: 0, y: 340 }) // below the lowest
    const { node } = withNewNode(graph, 'decide', 'bye')
    expect(node).toMatchObject({ id: 'decide_1', kind: 'decide', position: { x: 0, y: 340 } })
  })

  it('deletes a node with every edge to or from it', () => {
    const left = withoutNode(graph, 'bye')
    expect(left.nodes.map((n) => n.id)).toEqual(['start'])
    expect(left.edges).toEqual([])
  })
})

describe('undo history', () => {
  const doc = (name: string): FlowDoc => ({ name, description: '', graph })
  const start: History = { past: [], present: doc('a'), future: [] }

  it('keeps a drag as one step: the checkpoint, then previews', () => {
    let state = historyReducer(start, { type: 'checkpoint' })
    state = historyReducer(state, { type: 'preview', doc: doc('moving') })
    state = historyReducer(state, { type: 'preview', doc: doc('moved') })
    expect(state.past.map((d) => d.name)).toEqual(['a'])
    state = historyReducer(state, { type: 'undo' })
    expect(state.present.name).toBe('a')
    expect(historyReducer(state, { type: 'redo' }).present.name).toBe('moved')
  })

  it('drops what was undone on a new change, and keeps at most HISTORY_LIMIT steps', () => {
    let state = historyReducer(start, { type: 'change', doc: doc('b') })
    state = historyReducer(state, { type: 'undo' })
    state = historyReducer(state, { type: 'change', doc: doc('c') })
    expect(state.future).toEqual([])
    expect(state.past.map((d) => d.name)).toEqual(['a'])
    for (let i = 0; i < HISTORY_LIMIT + 5; i += 1) state = historyReducer(state, { type: 'change', doc: doc(`n${i}`) })
    expect(state.past).toHaveLength(HISTORY_LIMIT)
  })
})
