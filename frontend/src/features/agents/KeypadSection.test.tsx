import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { saveSession } from '@/lib/session'
import { agentHandlers, makeAgent } from '@/testing/agents'
import { calls, server, url } from '@/testing/msw'
import { renderApp } from '@/testing/render'
import { DTMF_MESSAGE } from './schema'

const VOICES = [{ name: 'joe', description: 'American male', engine: 'piper', gender: 'male', recording_url: '/api/v1/voices/joe/sample.mp3' }]

beforeEach(() => {
  saveSession('1|x', { id: 1, name: 'Grace', email: 'g@example.com', role: 'user' })
  server.use(http.get(url('voices'), () => HttpResponse.json({ voices: VOICES })))
})

describe('Agent editor: Keypad', () => {
  it('checks the precall keys beside the field, shows what they press, and saves them without spaces', async () => {
    const store = [makeAgent({ id: 'a1', name: 'Menu caller', prompt: 'Call Acme about the order.', precall_dtmf_sequence: '1' })]
    server.use(...agentHandlers(store))
    const user = userEvent.setup()
    const { router } = renderApp('/dashboard/agents/a1')
    const keys = await screen.findByLabelText('Keys to press when answered (optional)')
    expect(keys).toHaveValue('1')
    expect(screen.getByTestId('agent-precall-keys')).toHaveTextContent('Presses 1')

    await user.clear(keys)
    await user.type(keys, '3w1x')
    await user.click(screen.getByRole('button', { name: 'Save agent' }))
    expect(await screen.findByText(DTMF_MESSAGE)).toBeInTheDocument()
    expect(keys).toHaveAttribute('aria-invalid', 'true')
    expect(calls.some((c) => c.method === 'PUT')).toBe(false)

    await user.clear(keys)
    await user.type(keys, '3 w 1#')
    expect(screen.getByTestId('agent-precall-keys')).toHaveTextContent('Presses 3 (pause) 1 #')
    await user.click(screen.getByRole('button', { name: 'Save agent' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/agents'))
    const sent = calls.find((c) => c.method === 'PUT' && c.path === 'agents/a1')?.body as { precall_dtmf_sequence: string | null }
    expect(sent.precall_dtmf_sequence).toBe('3w1#')
    expect(store[0]?.precall_dtmf_sequence).toBe('3w1#')
  })

  it('shows the server refusal beside the field, and sends none when left empty', async () => {
    const store = [makeAgent({ id: 'a1', name: 'Menu caller', prompt: 'Call Acme about the order.' })]
    server.use(...agentHandlers(store))
    server.use(http.put(url('agents/a1'), () => HttpResponse.json({ success: false, message: DTMF_MESSAGE, errors: { precall_dtmf_sequence: [DTMF_MESSAGE] } }, { status: 422 })))
    const user = userEvent.setup()
    renderApp('/dashboard/agents/a1')
    const keys = await screen.findByLabelText('Keys to press when answered (optional)')
    expect(keys).toHaveValue('')
    expect(screen.queryByTestId('agent-precall-keys')).not.toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Save agent' }))
    await waitFor(() => expect(document.getElementById('agent-precall-dtmf-error')).toHaveTextContent(DTMF_MESSAGE))
    const sent = calls.find((c) => c.method === 'PUT' && c.path === 'agents/a1')?.body as { precall_dtmf_sequence: string | null }
    expect(sent.precall_dtmf_sequence).toBeNull()
  })
})
