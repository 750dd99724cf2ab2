import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { saveSession } from '@/lib/session'
import { agentHandlers, makeAgent } from '@/testing/agents'
import { flowHandlers } from '@/testing/callFlows'
import { calls, server, url } from '@/testing/msw'
import { renderApp } from '@/testing/render'

beforeEach(() => {
  saveSession('1|x', { id: 1, name: 'Grace', email: 'g@example.com', role: 'user' })
  server.use(
    http.get(url('voices'), () => HttpResponse.json({ voices: [{ name: 'joe', description: '', engine: 'piper', gender: 'male', recording_url: '/v.mp3' }] })),
    http.get(url('user/1/stats'), () => HttpResponse.json({ success: true, data: { name: 'Grace', balance: 100, totalCalls: 0, totalMinutesUsed: 0 } })),
    http.get(url('call-details/c1'), () => HttpResponse.json({ success: true, data: { call_id: 'c1', transcripts: [], completed: false } })),
    ...flowHandlers(),
  )
})

describe('Send Call on a conversation flow', () => {
  it('needs no prompt with a published flow, offers its nodes to start at and sends flow_id, flow_version and start_node_id', async () => {
    server.use(http.post(url('send-call'), () => HttpResponse.json({ success: true, message: 'Call initiated', callId: 'c1', from: '+18885550100', balance: 97.55 })))
    const user = userEvent.setup()
    renderApp('/dashboard/send-call')
    await user.type(await screen.findByLabelText('Phone number'), '+15005550050')
    const picker = screen.getByLabelText('Conversation flow')
    await waitFor(() => expect(within(picker).getByRole<HTMLOptionElement>('option', { name: 'Survey draft (not published yet)' }).disabled).toBe(true))

    // Without a flow the prompt is required.
    await user.click(screen.getByRole('button', { name: 'Send Call' }))
    expect((await screen.findAllByText('The prompt must be at least 10 characters long')).length).toBeGreaterThan(0)
    expect(calls.some((c) => c.path === 'send-call')).toBe(false)

    await user.selectOptions(picker, 'f1')
    expect(screen.getByLabelText('Prompt (optional: the flow leads the call)')).toHaveValue('')
    const start = await screen.findByLabelText('Start at')
    // The published version's nodes (globals fire from anywhere: not a place to start).
    await waitFor(() => expect(within(start).getAllByRole('option').map((o) => o.textContent)).toEqual(["The flow's start: Greeting", 'Confirm', 'Confirmed', 'Ask for a new time']))
    await user.selectOptions(start, 'confirm')
    // The variables the flow is given by the call are asked for (not those an ask node captures).
    const inputs = within(screen.getByTestId('call-variables'))
    expect(inputs.getAllByRole('textbox').map((i) => i.id)).toEqual(['variable-customer_name'])
    await user.click(screen.getByRole('button', { name: 'Send Call' }))
    expect((await screen.findAllByText('Fill in {{customer_name}} to send this call.')).length).toBeGreaterThan(0)
    expect(calls.some((c) => c.path === 'send-call')).toBe(false)
    await user.type(screen.getByLabelText('{{customer_name}}'), 'Ann')
    await user.click(screen.getByRole('button', { name: 'Send Call' }))
    await waitFor(() =>
      expect(calls.find((c) => c.path === 'send-call')?.body).toMatchObject({ phone: '+15005550050', prompt: null, flow_id: 'f1', flow_version: 3, start_node_id: 'confirm', variables: { customer_name: 'Ann' } }),
    )
  })

  it("shows the server's refusal of the flow beside the picker", async () => {
    server.use(http.post(url('send-call'), () => HttpResponse.json({ success: false, message: 'The flow has no published version.', errors: { flow: ['The flow has no published version.'] } }, { status: 422 })))
    const user = userEvent.setup()
    renderApp('/dashboard/send-call')
    await user.type(await screen.findByLabelText('Phone number'), '+15005550050')
    const picker = screen.getByLabelText('Conversation flow')
    await waitFor(() => expect(within(picker).getAllByRole('option')).toHaveLength(3))
    await user.selectOptions(picker, 'f1')
    await user.type(await screen.findByLabelText('{{customer_name}}'), 'Ann')
    await user.click(screen.getByRole('button', { name: 'Send Call' }))
    const field = await screen.findByText('The flow has no published version.', { selector: '#flow-error' })
    expect(field).toHaveAttribute('role', 'alert')
    expect(calls.find((c) => c.path === 'send-call')?.body).toMatchObject({ flow_id: 'f1', start_node_id: null })
  })

  it("switches an agent's flow off for one call when None is picked: the prompt leads it", async () => {
    server.use(
      http.post(url('send-call'), () => HttpResponse.json({ success: true, message: 'Call initiated', callId: 'c1', from: '+18885550100', balance: 97.55 })),
      ...agentHandlers([makeAgent({ id: 'a1', name: 'Confirmations', prompt: 'Confirm the appointment and say goodbye.', flow_id: 'f1' })]),
    )
    const user = userEvent.setup()
    renderApp('/dashboard/send-call')
    await user.type(await screen.findByLabelText('Phone number'), '+15005550050')
    const agents = await screen.findByLabelText('Start from agent')
    await waitFor(() => expect(within(agents).getAllByRole('option')).toHaveLength(2))
    await user.selectOptions(agents, 'a1')
    const picker = screen.getByLabelText('Conversation flow')
    await waitFor(() => expect(picker).toHaveValue('f1'))
    await user.selectOptions(picker, '')
    expect(screen.getByLabelText('What should the agent do?')).toHaveValue('Confirm the appointment and say goodbye.')
    await user.click(screen.getByRole('button', { name: 'Send Call' }))
    await waitFor(() => expect(calls.find((c) => c.path === 'send-call')?.body).toMatchObject({ agentId: 'a1', flow_id: '', prompt: 'Confirm the appointment and say goodbye.' }))
  })
})
