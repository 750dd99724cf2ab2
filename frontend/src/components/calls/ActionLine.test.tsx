import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { WebhookEvent } from '@/lib/realtime'
import { ActionLine } from './ActionLine'
import { EMPTY_TRANSCRIPT, orderedLines, transcriptReducer, type CallAction } from './liveTranscript'

const started: CallAction = { kind: 'tool', name: 'check_calendar', status: 'started', summary: 'Calling check_calendar', arguments: { day: 'Tuesday' }, result: null, latency_ms: null }
const done: CallAction = { ...started, status: 'succeeded', summary: 'check_calendar answered in 312 ms', result: { free: true }, latency_ms: 312 }

function event(action: CallAction, at: string): WebhookEvent {
  return { callId: 'c1', message: action.summary, category: 'action', completed: false, action, at } as WebhookEvent
}

describe('Action lines in the live transcript', () => {
  it('shows a started tool, then its result in the same line, and keeps it when the stored transcript comes', () => {
    let state = transcriptReducer(EMPTY_TRANSCRIPT, { type: 'action', event: event(started, '2026-11-27T10:00:01Z') })
    expect(orderedLines(state).map((l) => [l.text, l.action?.status])).toEqual([['Calling check_calendar', 'started']])
    state = transcriptReducer(state, { type: 'action', event: event(done, '2026-11-27T10:00:02Z') })
    const lines = orderedLines(state)
    expect(lines.map((l) => [l.text, l.action?.status, l.action?.latency_ms])).toEqual([['check_calendar answered in 312 ms', 'succeeded', 312]])
    expect(lines[0].timestamp).toBe('2026-11-27T10:00:01Z')
    state = transcriptReducer(state, { type: 'stored', ended: true, entries: [{ id: 1, seq: 1, text: 'Hello!', user: 'assistant', created_at: '2026-11-27T10:00:00Z' }] as never })
    expect(orderedLines(state).map((l) => l.text)).toEqual(['Hello!', 'check_calendar answered in 312 ms'])
    // A second call of the same tool is a line of its own.
    state = transcriptReducer(state, { type: 'action', event: event(started, '2026-11-27T10:00:05Z') })
    expect(orderedLines(state)).toHaveLength(3)
  })

  it('renders the arguments, the status and the latency', () => {
    render(<ActionLine text={done.summary} action={done} timestamp="2026-11-27T10:00:02Z" />)
    expect(screen.getByText('check_calendar answered in 312 ms')).toBeInTheDocument()
    expect(screen.getByText('succeeded')).toBeInTheDocument()
    expect(screen.getByText('day: Tuesday')).toBeInTheDocument()
    expect(screen.getByText('312 ms')).toBeInTheDocument()
  })
})
