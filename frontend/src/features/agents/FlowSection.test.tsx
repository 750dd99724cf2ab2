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
  server.use(http.get(url('voices'), () => HttpResponse.json({ voices: [{ name: 'joe', description: '', engine: 'piper', gender: 'male', recording_url: '/v.mp3' }] })), ...flowHandlers())
})

describe("Agent editor's conversation flow", () => {
  it('offers only published flows, says which version calls run with a link to the flow, and saves flow_id', async () => {
    server.use(...agentHandlers([]))
    const user = userEvent.setup()
    const { router } = renderApp('/dashboard/agents/new')
    const picker = await screen.findByLabelText('Conversation flow')
    await waitFor(() => expect(within(picker).getAllByRole('option')).toHaveLength(3))
    const options = within(picker).getAllByRole<HTMLOptionElement>('option')
    expect(options.map((o) => [o.textContent, o.disabled])).toEqual([
      ['None: the prompt leads the call', false],
      ['Appointments (version 3)', false],
      ['Survey draft (not published yet)', true],
    ])
    await user.type(screen.getByLabelText('Name'), 'Reminders')
    await user.type(screen.getByLabelText('Prompt'), 'Confirm the cleaning appointment.')
    await user.selectOptions(picker, 'f1')
    const hint = screen.getByTestId('flow-picked')
    expect(hint).toHaveTextContent('Calls run published version 3 (the draft has changes not published yet).')
    expect(within(hint).getByRole('link', { name: 'Open the flow' })).toHaveAttribute('href', '/dashboard/flows/f1')

    await user.click(screen.getByRole('button', { name: 'Create agent' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/agents'))
    expect(calls.find((c) => c.method === 'POST' && c.path === 'agents')?.body).toMatchObject({ name: 'Reminders', flow_id: 'f1' })
  })

  it("shows an agent's flow picked, and choosing none saves flow_id null (the prompt again)", async () => {
    server.use(...agentHandlers([makeAgent({ id: 'a1', name: 'Reminders', prompt: 'Confirm the cleaning appointment.', flow_id: 'f1' })]))
    const user = userEvent.setup()
    renderApp('/dashboard/agents/a1')
    const picker = await screen.findByLabelText('Conversation flow')
    await waitFor(() => expect(picker).toHaveValue('f1'))
    expect(await screen.findByTestId('flow-picked')).toHaveTextContent('Calls run published version 3')
    await user.selectOptions(picker, '')
    expect(screen.queryByTestId('flow-picked')).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Save agent' }))
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT' && c.path === 'agents/a1')?.body).toMatchObject({ flow_id: null }))
  })
})
