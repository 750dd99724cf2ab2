/** The editor's undo history: every change keeps the document before it; a drag records one
 * step (the document at its start) however many moves it takes. */
import { useCallback, useReducer } from 'react'
import type { FlowDoc } from './graph'

/** Enough for an editing session; the oldest steps go first. */
export const HISTORY_LIMIT = 100

export interface History {
  past: FlowDoc[]
  present: FlowDoc
  future: FlowDoc[]
}

export type HistoryAction =
  | { type: 'change'; doc: FlowDoc }
  /** Keep the present as an undo step, then change without recording (a drag in progress). */
  | { type: 'checkpoint' }
  | { type: 'preview'; doc: FlowDoc }
  | { type: 'undo' }
  | { type: 'redo' }

const kept = (past: FlowDoc[], doc: FlowDoc) => [...past, doc].slice(-HISTORY_LIMIT)

export function historyReducer(state: History, action: HistoryAction): History {
  switch (action.type) {
    case 'change':
      return action.doc === state.present ? state : { past: kept(state.past, state.present), present: action.doc, future: [] }
    case 'checkpoint':
      return { past: kept(state.past, state.present), present: state.present, future: [] }
    case 'preview':
      return { ...state, present: action.doc }
    case 'undo': {
      const previous = state.past.at(-1)
      return previous ? { past: state.past.slice(0, -1), present: previous, future: [state.present, ...state.future] } : state
    }
    case 'redo': {
      const [next, ...rest] = state.future
      return next ? { past: kept(state.past, state.present), present: next, future: rest } : state
    }
  }
}

export function useHistory(initial: FlowDoc) {
  const [state, dispatch] = useReducer(historyReducer, { past: [], present: initial, future: [] })
  const change = useCallback((doc: FlowDoc) => dispatch({ type: 'change', doc }), [])
  const undo = useCallback(() => dispatch({ type: 'undo' }), [])
  const redo = useCallback(() => dispatch({ type: 'redo' }), [])
  return { doc: state.present, canUndo: state.past.length > 0, canRedo: state.future.length > 0, change, undo, redo, dispatch }
}
