/** Conversation flows for the call-side tests (the editor's fake flows API is testing/flows.ts): a published flow with its version's graph, and
 * one never published. */
import { http, HttpResponse } from 'msw'
import type { FlowGraph, FlowStep, FlowSummary } from '@/components/flows/api'
import { url } from './msw'

export const GRAPH: FlowGraph = {
  start_node_id: 'greeting',
  variables: [
    { name: 'customer_name', type: 'name', description: "The callee's first name" },
    { name: 'new_time', type: 'text', description: 'The time they move to' },
  ],
  nodes: [
    { id: 'greeting', kind: 'say', name: 'Greeting', text: 'Hi, this is Bright Dental.', position: { x: 0, y: 0 } },
    { id: 'confirm', kind: 'ask', name: 'Confirm', text: 'Does Tuesday at 3 still work?', position: { x: 0, y: 120 } },
    { id: 'confirmed', kind: 'action', name: 'Confirmed', action: { type: 'end_call', text: 'See you then.' }, position: { x: -150, y: 240 } },
    { id: 'new_time', kind: 'ask', name: 'Ask for a new time', text: 'When would suit you?', capture: [{ variable: 'new_time', type: 'text' }], position: { x: 150, y: 240 } },
    { id: 'opt_out', kind: 'global', name: 'Opts out', position: { x: 300, y: 0 } },
  ],
  edges: [
    { id: 'e1', source: 'greeting', target: 'confirm', kind: 'next', label: '' },
    { id: 'e2', source: 'confirm', target: 'confirmed', kind: 'answer', label: 'Yes' },
    { id: 'e3', source: 'confirm', target: 'new_time', kind: 'answer', label: 'Reschedule' },
  ],
} as FlowGraph

const stamp = '2026-11-27T10:00:00Z'
export const PUBLISHED: FlowSummary = { id: 'f1', name: 'Appointments', description: '', published_version: 3, has_unpublished_changes: true, node_count: 5, created_at: stamp, updated_at: stamp }
export const DRAFT_ONLY: FlowSummary = { id: 'f2', name: 'Survey draft', description: '', published_version: null, has_unpublished_changes: true, node_count: 1, created_at: stamp, updated_at: stamp }

export const STEPS: FlowStep[] = [
  { node_id: 'greeting', node_name: 'Greeting', edge_id: 'e1', reason: 'next', heard: null, captured: {}, at: 0.5 },
  { node_id: 'confirm', node_name: 'Confirm', edge_id: 'e2', reason: "answer 'Yes' by the phrase 'that works'", heard: 'Yes, that works for me.', captured: { confirmed: 'yes' }, at: 4 },
  { node_id: 'confirmed', node_name: 'Confirmed', edge_id: null, reason: 'end call', heard: null, captured: {}, at: 8 },
]

export const flowHandlers = (flows: FlowSummary[] = [PUBLISHED, DRAFT_ONLY]) => [
  http.get(url('flows'), () => HttpResponse.json({ success: true, data: flows, pagination: { current_page: 1, last_page: 1, per_page: 100, total: flows.length } })),
  http.get(url('flows/:id/versions/:version'), ({ params }) => HttpResponse.json({ success: true, data: { version: Number(params.version), published_at: stamp, graph: GRAPH } })),
]
