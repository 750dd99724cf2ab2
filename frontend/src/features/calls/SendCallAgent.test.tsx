import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { saveSession } from '@/lib/session'
import { agentHandlers, makeAgent } from '@/testing/agents'
import { calls, server, url } from '@/testing/msw'
import { renderApp } from '@/testing/render'

const VOICES = [
  { name: 'joe', description: 'American male', engine: 'piper', gender: 'male', recording_url: '/api/v1/voices/joe/sample.mp3' },
  { name: 'amy', description: '', engine: 'piper', gender: 'female', recording_url: '/api/v1/voices/amy/sample.mp3' },
]

const AGENT = makeAgent({
  id: 'a1',
  name: 'Dental reminder',
  prompt: 'You are Sam from Acme Dental. Confirm the cleaning of {{name}} on {{day}}.',
  first_sentence: 'Hi {{name}}!',
  voice: 'amy',
  temperature: 0.3,
  interruption_threshold: 150,
  background_audio: 'office',
  max_duration: 5,
  wait_for_greeting: true,
  voicemail_action: 'hangup',
  transfer_number: '+15005550011',
})

beforeEach(() => {
  saveSession('1|x', { id: 1, name: 'Grace', email: 'g@example.com', role: 'user' })
  server.use(
    http.get(url('voices'), () => HttpResponse.json({ voices: VOICES })),
    http.get(url('user/1/stats'), () => HttpResponse.json({ success: true, data: { name: 'Grace', balance: 100, totalCalls: 0, totalMinutesUsed: 0 } })),
    http.post(url('send-call'), () => HttpResponse.json({ success: true, message: 'Call initiated', callId: 'c1', from: '+18885550100', balance: 97.55 })),
    http.get(url('call-details/c1'), () => HttpResponse.json({ success: true, data: { call_id: 'c1', transcripts: [], completed: false } })),
    ...agentHandlers([AGENT, makeAgent({ id: 'a2', name: 'Plain', prompt: 'Say hello and ask how they are.' })]),
  )
})

describe('Send Call from an agent', () => {
  it('fills the form from the chosen agent, asks for each variable and sends agentId and variables', async () => {
    const user = userEvent.setup()
    renderApp('/dashboard/send-call')
    const picker = await screen.findByLabelText('Start from agent')
    await waitFor(() => expect(within(picker).getAllByRole('option').map((o) => o.textContent)).toEqual(['No agent: write the prompt here', 'Dental reminder', 'Plain']))
    await user.type(screen.getByLabelText('Phone number'), '+15551234567')
    await user.selectOptions(picker, 'a1')

    await waitFor(() => expect(screen.getByLabelText('What should the agent do?')).toHaveValue(AGENT.prompt))
    expect(screen.getByLabelText('Phone number')).toHaveValue('+15551234567')
    expect(screen.getByRole('radio', { name: /amy/ })).toBeChecked()
    expect(screen.getByLabelText('First sentence (optional)')).toHaveValue('Hi {{name}}!')
    expect(screen.getByLabelText('When voicemail answers')).toHaveValue('hangup')
    expect(screen.getByLabelText('Background audio')).toHaveValue('office')
    expect(screen.getByRole('switch')).toBeChecked()
    const inputs = within(screen.getByTestId('call-variables'))
    expect(inputs.getAllByRole('textbox').map((i) => i.id)).toEqual(['variable-name', 'variable-day'])

    // A variable left empty is refused before anything is sent.
    await user.type(screen.getByLabelText('{{name}}'), 'Ann')
    await user.click(screen.getByRole('button', { name: 'Send Call' }))
    expect((await screen.findAllByText('Fill in {{day}} to send this call.')).length).toBeGreaterThan(0)
    expect(calls.some((c) => c.path === 'send-call')).toBe(false)

    // Still editable: a changed setting is sent as changed.
    await user.type(screen.getByLabelText('{{day}}'), 'Friday')
    await user.selectOptions(screen.getByLabelText('When voicemail answers'), 'leave_message')
    await user.type(screen.getByLabelText('Voicemail message'), 'Please call back, {{{{name}}.')
    await user.click(screen.getByRole('button', { name: 'Send Call' }))
    await waitFor(() => expect(calls.find((c) => c.path === 'send-call')?.body).toEqual({
      userId: 1,
      phone: '+15551234567',
      prompt: AGENT.prompt,
      max_duration: 5,
      voice: 'amy',
      language: 'en-US',
      waitGreeting: true,
      temperature: 0.3,
      interruption_threshold: 150,
      background_audio: 'office',
      agentId: 'a1',
      first_sentence: 'Hi {{name}}!',
      voicemail_action: 'leave_message',
      voicemail_message: 'Please call back, {{name}}.',
      transfer_number: '+15005550011',
      // No flow picked: from an agent that says "none for this call" (over an agent's flow).
      flow_id: '',
      variables: { name: 'Ann', day: 'Friday' },
    }))
  })

  it('an agent without variables asks for none, and the server refusal is shown', async () => {
    server.use(http.post(url('send-call'), () => HttpResponse.json({ success: false, message: 'Agent not found.', errors: {} }, { status: 404 })))
    const user = userEvent.setup()
    renderApp('/dashboard/send-call')
    const picker = await screen.findByLabelText('Start from agent')
    await within(picker).findByRole('option', { name: 'Plain' })
    await user.selectOptions(picker, 'a2')
    await waitFor(() => expect(screen.getByLabelText('What should the agent do?')).toHaveValue('Say hello and ask how they are.'))
    expect(screen.queryByTestId('call-variables')).not.toBeInTheDocument()
    await user.type(screen.getByLabelText('Phone number'), '+15551234567')
    await user.click(screen.getByRole('button', { name: 'Send Call' }))
    expect(await screen.findByText('Agent not found.')).toBeInTheDocument()
    expect(calls.find((c) => c.path === 'send-call')?.body).toMatchObject({ agentId: 'a2', voice: 'joe', first_sentence: '', voicemail_action: 'leave_message', voicemail_message: '' })
  })
})
