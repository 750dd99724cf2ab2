import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it } from 'vitest'
import { saveSession } from '@/lib/session'
import { flowHandlers, makeFlow } from '@/testing/flows'
import { calls, server } from '@/testing/msw'
import { mockReactFlow } from '@/testing/reactflow'
import { renderApp } from '@/testing/render'
import type { FlowGraph, TextTurnIn, TextTurnOut } from './types'

mockReactFlow()
beforeEach(() => saveSession('1|x', { id: 1, name: 'Grace', email: 'g@example.com', role: 'user' }))

const draft: FlowGraph = {
  start_node_id: 'start',
  variables: [{ name: 'name', type: 'name' }],
  nodes: [
    { id: 'start', kind: 'ask', name: 'Confirm', text: 'Does 3 pm work?', position: { x: 0, y: 0 } },
    { id: 'bye', kind: 'action', name: 'Goodbye', action: { type: 'transfer', text: 'Putting you through.' }, position: { x: 0, y: 200 } },
  ],
  edges: [{ id: 'yes', source: 'start', target: 'bye', kind: 'answer', label: 'Yes', intent: 'yes' }],
}

/** The runner's answers for this flow: the opening, then "yes" leads to the transfer. */
function turn(body: TextTurnIn): TextTurnOut {
  if (!body.state) return { state: { node_id: 'start', tries: 0, variables: { name: 'Ada' } }, lines: ['Hi Ada. Does 3 pm work?'], steps: [{ node_id: 'start', node_name: 'Confirm', reason: 'start' }] }
  return {
    state: { node_id: 'bye', tries: 0, variables: { name: 'Ada', confirmed: 'yes' }, ended: true },
    lines: ['Putting you through.'],
    steps: [
      { node_id: 'start', node_name: 'Confirm', edge_id: 'yes', reason: "answer 'Yes' by the intent yes", heard: body.said, captured: { confirmed: 'yes' } },
      { node_id: 'bye', node_name: 'Goodbye', reason: 'transfer' },
    ],
    actions: ['transfer (cold) to +15005550010'],
    ended: true,
    end_reason: 'transfer',
  }
}

describe('Test in text', () => {
  it("plays the callee, shows the agent's lines, actions and path, sends the state back, and resets", async () => {
    server.use(...flowHandlers([makeFlow({ id: 'f1', name: 'Confirm', draft })], { turn }))
    const user = userEvent.setup()
    renderApp('/dashboard/flows/f1')
    const panel = (await screen.findByRole('heading', { name: 'Test in text' })).closest('section') as HTMLElement
    await user.type(within(panel).getByLabelText('Variable name'), 'Ada')
    await user.click(within(panel).getByRole('button', { name: 'Start test' }))
    const transcript = within(panel).getByTestId('test-transcript')
    expect(await within(transcript).findByText('Hi Ada. Does 3 pm work?')).toBeInTheDocument()
    expect(within(transcript).getByText('→ Confirm: start')).toBeInTheDocument()
    expect(screen.getByTestId('node-start')).toHaveAttribute('data-path', 'current')
    expect(calls.filter((c) => c.path === 'flows/f1/test').map((c) => c.body)).toEqual([{ state: null, said: null, variables: { name: 'Ada' } }])

    await user.type(within(panel).getByLabelText('You say'), 'yes that works')
    await user.click(within(panel).getByRole('button', { name: 'Send' }))
    expect(await within(transcript).findByText('Putting you through.')).toBeInTheDocument()
    expect(within(transcript).getByText('yes that works')).toBeInTheDocument()
    expect(within(transcript).getByText("→ Confirm: answer 'Yes' by the intent yes (captured confirmed=yes)")).toBeInTheDocument()
    expect(within(transcript).getByText('transfer (cold) to +15005550010')).toBeInTheDocument()
    expect(within(transcript).getByText('The call ends (transfer)')).toBeInTheDocument()
    expect(calls.filter((c) => c.path === 'flows/f1/test').at(-1)?.body).toEqual({ state: { node_id: 'start', tries: 0, variables: { name: 'Ada' } }, said: 'yes that works' })
    expect(within(panel).getByLabelText('You say')).toBeDisabled()
    expect(screen.getByTestId('node-start')).toHaveAttribute('data-path', 'visited')
    expect(screen.getByTestId('node-bye')).toHaveAttribute('data-path', 'visited')

    await user.click(within(panel).getByRole('button', { name: 'Reset' }))
    expect(within(transcript).queryByText('Putting you through.')).not.toBeInTheDocument()
    expect(screen.getByTestId('node-start')).not.toHaveAttribute('data-path')
    await user.click(within(panel).getByRole('button', { name: 'Start test' }))
    await waitFor(() => expect(calls.filter((c) => c.path === 'flows/f1/test').at(-1)?.body).toEqual({ state: null, said: null, variables: { name: 'Ada' } }))
  })

  it("shows the server's refusal", async () => {
    server.use(...flowHandlers([makeFlow({ id: 'f2', name: 'No runner', draft })]))
    const user = userEvent.setup()
    renderApp('/dashboard/flows/f2')
    await user.click(await screen.findByRole('button', { name: 'Start test' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Not Found')
  })
})
