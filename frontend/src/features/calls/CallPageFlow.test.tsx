import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { EMPTY_TRANSCRIPT, orderedLines, transcriptReducer } from '@/components/calls/liveTranscript'
import { stepsAmongLines } from '@/components/flows/api'
import { drawnPath } from '@/components/flows/path'
import type { WebhookEvent } from '@/lib/realtime'
import { saveSession } from '@/lib/session'
import { GRAPH, STEPS } from '@/testing/callFlows'
import { server, url } from '@/testing/msw'
import { renderApp } from '@/testing/render'

const LINES = [
  { user: 'assistant', text: 'Hi, this is Bright Dental. Does Tuesday at 3 still work?', created_at: '2026-11-24T10:00:00.200Z', seq: 1 },
  { user: 'user', text: 'Yes, that works for me.', created_at: '2026-11-24T10:00:03Z', seq: 2 },
  { user: 'assistant', text: 'See you then.', created_at: '2026-11-24T10:00:05Z', seq: 3 },
]

const flowCall = (extra: Record<string, unknown> = {}) => ({
  call_id: 'c1',
  kind: 'dashboard',
  from: '+18885550100',
  to: '+15005550050',
  created_at: '2026-11-24T10:00:00Z',
  status: 'completed',
  outcome: 'completed',
  answered_by: 'human',
  corrected_duration: 9,
  call_length: 12,
  record_url: null,
  completed: true,
  error: null,
  transfer: { transfer_number: null, transfer_list: null, transfer_mode: 'cold', transferred_to: null, transferred_at: null, transfer_status: null, pre_transfer_duration: null, post_transfer_duration: null },
  transcripts: LINES,
  latencies: [],
  analysis: null,
  settings: { source: 'dashboard', prompt: 'Follow the conversation flow f1 (version 3).', voice: 'joe', temperature: 0.7, interruption_threshold: 100, background_audio: 'null', max_duration: 2, wait_for_greeting: false },
  events: [],
  times: { queued_at: '2026-11-24T09:59:55Z', ringing_at: '2026-11-24T09:59:58Z', answered_at: '2026-11-24T10:00:00Z', ended_at: '2026-11-24T10:00:09Z', recording_started_at: null, recording_ended_at: null },
  billing: { rate_per_minute: 0.49, hold: 0.98, billed_seconds: 9, billed_minutes: 1, cost: 0.49, capped: false, rule: '', explanation: '', ledger: [] },
  owner: null,
  flow_id: 'f1',
  flow_version: 3,
  start_node_id: null,
  pathway_logs: STEPS,
  flow_graph: GRAPH,
  ...extra,
})

beforeAll(() => {
  // React Flow measures its pane; jsdom has no layout.
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver
})

beforeEach(() => saveSession('1|x', { id: 1, name: 'Grace', email: 'g@example.com', role: 'user' }))

describe('A call on a conversation flow', () => {
  it('marks the node changes between the transcript lines and shows the path, the captures and the graph', async () => {
    server.use(http.get(url('call/c1/page'), () => HttpResponse.json({ success: true, data: flowCall() })))
    renderApp('/dashboard/calls/c1')
    const transcript = await screen.findByTestId('synced-transcript')
    const items = within(transcript).getAllByRole('listitem').map((li) => li.textContent ?? '')
    expect(items.map((text) => (text.startsWith('->') ? text : text.replace(/\d\d:\d\d(:\d\d)?( [AP]M)?/, '')))).toEqual([
      '1. AgentHi, this is Bright Dental. Does Tuesday at 3 still work?',
      '-> Greeting (next)',
      '2. UserYes, that works for me.',
      "-> Confirm (answer 'Yes' by the phrase 'that works')confirmed = yes",
      '3. AgentSee you then.',
      '-> Confirmed (end call)',
    ])

    const path = screen.getByTestId('flow-path')
    expect(within(path).getByText(/Published version 3 of the flow/)).toBeInTheDocument()
    expect(within(path).getAllByTestId('flow-path-step').map((li) => li.textContent)).toEqual([
      '1. Greeting0.5 snext',
      "2. Confirm4.0 sTook \"Yes\": answer 'Yes' by the phrase 'that works'Heard: “Yes, that works for me.”",
      '3. Confirmed8.0 send call',
    ])
    expect(within(screen.getByTestId('flow-captured')).getByText('confirmed').nextSibling).toHaveTextContent('yes')
    await waitFor(() => expect(within(path).getByTestId('flow-graph')).toBeInTheDocument())
  })

  it('draws the path on the graph: the visited nodes and taken edges highlighted, the rest not', () => {
    const { nodes, edges } = drawnPath(GRAPH, STEPS)
    expect(nodes.filter((n) => n.className === 'flow-visited').map((n) => n.id)).toEqual(['greeting', 'confirm', 'confirmed'])
    expect(edges.filter((e) => e.animated).map((e) => e.id)).toEqual(['e1', 'e2'])
    expect(nodes.find((n) => n.id === 'opt_out')?.data.label).toBe('Opts out (global)')
  })

  it("places the steps by their events' wall-clock times when the log has one per step (a sped-up call's `at` runs fast)", () => {
    const events = [
      { category: 'call', created_at: '2026-11-24T10:00:00Z' },
      { category: 'flow', created_at: '2026-11-24T10:00:00.100Z' },
      { category: 'flow', created_at: '2026-11-24T10:00:04Z' },
      { category: 'flow', created_at: '2026-11-24T10:00:04.500Z' },
    ]
    const fast = STEPS.map((step) => ({ ...step, at: (step.at ?? 0) * 2 }))
    expect(stepsAmongLines(fast, LINES, '2026-11-24T10:00:00Z', events).map((slot) => slot.map((s) => s.node_id))).toEqual([['greeting'], [], ['confirm', 'confirmed'], []])
    // Without the events, `at` from the answer.
    expect(stepsAmongLines(STEPS, LINES, '2026-11-24T10:00:00Z').map((slot) => slot.map((s) => s.node_id))).toEqual([[], ['greeting'], ['confirm'], ['confirmed']])
  })

  it('places a step with no time after the lines, and with no answer time too', () => {
    const noTime = { ...STEPS[0]!, at: null }
    expect(stepsAmongLines([noTime], LINES, '2026-11-24T10:00:00Z')).toEqual([[], [], [], [noTime]])
    expect(stepsAmongLines([STEPS[1]!], LINES, null)).toEqual([[], [], [], [STEPS[1]]])
  })

  it('shows no Flow path panel for a call on a prompt', async () => {
    server.use(http.get(url('call/c1/page'), () => HttpResponse.json({ success: true, data: flowCall({ flow_id: null, flow_version: null, pathway_logs: null, flow_graph: null }) })))
    renderApp('/dashboard/calls/c1')
    await screen.findByTestId('synced-transcript')
    expect(screen.queryByTestId('flow-path')).toBeNull()
    expect(screen.queryByTestId('flow-step')).toBeNull()
  })
})

describe('The live transcript', () => {
  it('marks a node change (a "flow" webhook-event with its step) among the lines, once', () => {
    const event = (step: (typeof STEPS)[number], at: string) => ({ callId: 'c1', category: 'flow', message: `Flow: ${step.node_name}`, completed: false, at, step }) as WebhookEvent
    const line = { callId: 'c1', category: 'call', message: 'User: Yes', completed: false, final: true, seq: 2, key: 'k2', text: 'Yes, that works for me.', speaker: 'user', at: '2026-11-24T10:00:03Z' } as WebhookEvent
    let state = transcriptReducer(EMPTY_TRANSCRIPT, { type: 'kept', event: line })
    state = transcriptReducer(state, { type: 'flow', event: event(STEPS[1]!, '2026-11-24T10:00:04Z') })
    state = transcriptReducer(state, { type: 'flow', event: event(STEPS[1]!, '2026-11-24T10:00:04Z') })
    expect(orderedLines(state).map((l) => l.text)).toEqual(['Yes, that works for me.', "-> Confirm (answer 'Yes' by the phrase 'that works')"])
    // The stored transcript at the end keeps the marks.
    state = transcriptReducer(state, { type: 'stored', entries: [{ user: 'user', text: 'Yes, that works for me.', created_at: '2026-11-24T10:00:03Z', seq: 2 }], ended: true })
    expect(orderedLines(state).map((l) => Boolean(l.step))).toEqual([false, true])
  })
})
