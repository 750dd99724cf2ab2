import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { saveSession } from '@/lib/session'
import { notify } from '@/lib/toast'
import { agentHandlers, makeAgent } from '@/testing/agents'
import { calls, server, url } from '@/testing/msw'
import { renderApp } from '@/testing/render'

const VOICES = [
  { name: 'joe', description: 'American male', engine: 'piper', gender: 'male', recording_url: '/api/v1/voices/joe/sample.mp3' },
  { name: 'amy', description: '', engine: 'piper', gender: 'female', recording_url: '/api/v1/voices/amy/sample.mp3' },
]

beforeEach(() => {
  saveSession('1|x', { id: 1, name: 'Grace', email: 'g@example.com', role: 'user' })
  server.use(http.get(url('voices'), () => HttpResponse.json({ voices: VOICES })))
})

describe('Agent editor', () => {
  it('offers the languages that passed, says the demo brain speaks English, and lists the voices of the language chosen', async () => {
    const store = [] as ReturnType<typeof makeAgent>[]
    server.use(
      ...agentHandlers(store),
      http.get(url('voices'), () => HttpResponse.json({ voices: [...VOICES.map((v) => ({ ...v, language: 'en-US' })), { name: 'lucia', description: '', engine: 'espeak', gender: 'female', language: 'es-ES', recording_url: '/api/v1/voices/lucia/sample.mp3' }] })),
      http.get(url('languages'), () =>
        HttpResponse.json({ success: true, default: 'en-US', languages: [{ code: 'en-US', name: 'English', voices: ['joe', 'amy'] }, { code: 'es-ES', name: 'Spanish', voices: ['lucia'] }] }),
      ),
    )
    const user = userEvent.setup()
    const { router } = renderApp('/dashboard/agents/new')
    const language = await screen.findByLabelText('Language')
    expect(language).toHaveValue('en-US')
    expect(within(language).getAllByRole('option').map((o) => o.textContent)).toEqual(['English (en-US)', 'Spanish (es-ES)'])
    expect(screen.getByText(/the built-in demo brain understands and answers in English only/)).toBeInTheDocument()
    const voice = screen.getByLabelText('Voice')
    expect(within(voice).getAllByRole('option').map((o) => o.textContent)).toEqual(['joe', 'amy'])

    await user.selectOptions(language, 'es-ES')
    expect(within(voice).getAllByRole('option').map((o) => o.textContent)).toEqual(['lucia'])
    expect(voice).toHaveValue('lucia')
    await user.type(screen.getByLabelText('Name', { selector: '#agent-name' }), 'Recordatorio')
    await user.type(screen.getByLabelText('Prompt'), 'Confirme la cita de mañana.')
    await user.click(screen.getByRole('button', { name: 'Create agent' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/agents'))
    const sent = calls.find((c) => c.method === 'POST' && c.path === 'agents')?.body as { language: string; voice: string }
    expect([sent.language, sent.voice]).toEqual(['es-ES', 'lucia'])
  })

  it('says so when English is the only language that passed', async () => {
    renderApp('/dashboard/agents/new')
    const language = await screen.findByLabelText('Language')
    expect(within(language).getAllByRole('option').map((o) => o.textContent)).toEqual(['English (en-US)'])
    expect(screen.getByText(/English is the only language that passed the offline speech test so far/)).toBeInTheDocument()
  })

  it('checks the fields beside them, shows the variables, and creates the agent with its analysis', async () => {
    const store = [] as ReturnType<typeof makeAgent>[]
    server.use(...agentHandlers(store))
    const user = userEvent.setup()
    const { router } = renderApp('/dashboard/agents/new')
    const name = await screen.findByLabelText('Name', { selector: '#agent-name' })
    expect(screen.getByLabelText('Voice')).toHaveValue('joe')

    await user.type(screen.getByLabelText('Prompt'), 'too short')
    await user.type(screen.getByLabelText('Webhook URL (optional)'), 'ftp://example.com')
    const disclosure = screen.getByLabelText('AI disclosure')
    expect(disclosure).toHaveAttribute('placeholder', "I'm an AI assistant, and this call is recorded.")
    await user.type(disclosure, 'This is Bright Dental calling.')
    await user.click(screen.getByRole('button', { name: 'Create agent' }))
    expect(await screen.findByText('The name field is required.')).toBeInTheDocument()
    expect(screen.getByText('The disclosure must say that the caller is an AI (for example "I\'m an AI assistant").')).toBeInTheDocument()
    await user.clear(disclosure)
    await user.type(disclosure, 'I am a virtual assistant for Bright Dental.')
    expect(screen.getByText('The prompt must be at least 10 characters long')).toBeInTheDocument()
    expect(screen.getByText('The webhook URL must be a valid http or https URL.')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST' && c.path === 'agents')).toBe(false)

    await user.type(name, 'Dental reminder')
    await user.clear(screen.getByLabelText('Prompt'))
    await user.type(screen.getByLabelText('Prompt'), 'Confirm {{{{name}} cleaning on {{{{ day }}')
    await user.type(screen.getByLabelText('First sentence (optional)'), 'Hi {{{{name}}, it is Sam.')
    const variables = screen.getByTestId('agent-variables')
    expect(within(variables).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['{{name}}', '{{day}}'])
    await user.selectOptions(screen.getByLabelText('Voice'), 'amy')
    await user.click(screen.getByLabelText('Hang up'))
    expect(screen.queryByLabelText('Voicemail message (optional)')).not.toBeInTheDocument()

    const disposition = screen.getByLabelText('Dispositions (the analysis picks one)')
    await user.type(disposition, 'confirmed{Enter}')
    await user.type(disposition, 'moved')
    await user.click(screen.getByRole('button', { name: 'Add' }))
    await user.type(disposition, 'Confirmed{Enter}')
    expect(screen.getByText('The disposition "Confirmed" is listed twice.')).toBeInTheDocument()
    await user.clear(disposition)
    await user.type(disposition, 'spam{Enter}')
    await user.click(screen.getByRole('button', { name: 'Remove spam' }))
    expect(within(screen.getByRole('list', { name: 'Dispositions' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['confirmed', 'moved'])

    await user.click(screen.getByRole('button', { name: 'Add field' }))
    await user.click(screen.getByRole('button', { name: 'Add field' }))
    await user.click(screen.getByRole('button', { name: 'Add field' }))
    expect(screen.getAllByTestId('extraction-field')).toHaveLength(3)
    await user.click(screen.getByRole('button', { name: 'Remove field 3' }))
    expect(screen.getAllByTestId('extraction-field')).toHaveLength(2)
    await user.type(screen.getByLabelText('Name', { selector: '#field-0-name' }), '9lives')
    await user.selectOptions(screen.getByLabelText('Type', { selector: '#field-0-type' }), 'date')
    await user.type(screen.getByLabelText('Description', { selector: '#field-0-description' }), 'The new time')
    await user.type(screen.getByLabelText('Name', { selector: '#field-1-name' }), 'confirmed')
    await user.selectOptions(screen.getByLabelText('Type', { selector: '#field-1-type' }), 'boolean')
    await user.clear(screen.getByLabelText('Webhook URL (optional)'))
    await user.click(screen.getByRole('button', { name: 'Create agent' }))
    expect(await screen.findByText(/A field name starts with a letter or underscore/)).toBeInTheDocument()
    await user.clear(screen.getByLabelText('Name', { selector: '#field-0-name' }))
    await user.type(screen.getByLabelText('Name', { selector: '#field-0-name' }), 'new_time')
    await user.click(screen.getByRole('button', { name: 'Create agent' }))

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/agents'))
    const sent = calls.find((c) => c.method === 'POST' && c.path === 'agents')
    expect(sent?.body).toEqual({
      name: 'Dental reminder',
      prompt: 'Confirm {{name}} cleaning on {{ day }}',
      first_sentence: 'Hi {{name}}, it is Sam.',
      language: 'en-US',
      voice: 'amy',
      temperature: 0.7,
      interruption_threshold: 100,
      background_audio: 'null',
      max_duration: 30,
      wait_for_greeting: false,
      voicemail_action: 'hangup',
      voicemail_message: null,
      disclosure: 'I am a virtual assistant for Bright Dental.',
      summary_prompt: null,
      dispositions: ['confirmed', 'moved'],
      analysis_schema: [
        { name: 'new_time', type: 'date', description: 'The new time' },
        { name: 'confirmed', type: 'boolean', description: '' },
      ],
      webhook_url: null,
      transfer_number: null,
      transfer_list: null,
      transfer_mode: 'cold',
      precall_dtmf_sequence: null,
      flow_id: null,
    })
    expect(await screen.findByRole('link', { name: 'Dental reminder' })).toBeInTheDocument()
  })

  it('loads an agent, shows the server refusal beside its field, and saves the change', async () => {
    const store = [makeAgent({ id: 'a1', name: 'Reminder', prompt: 'Remind {{name}} of the visit.', voicemail_message: 'Call us back, {{name}}.', dispositions: ['confirmed'], analysis_schema: [{ name: 'reason', type: 'string', description: 'Why' }] })]
    server.use(...agentHandlers(store))
    const user = userEvent.setup()
    const { router } = renderApp('/dashboard/agents/a1')
    expect(await screen.findByLabelText('Name', { selector: '#agent-name' })).toHaveValue('Reminder')
    expect(screen.getByLabelText('Voicemail message (optional)')).toHaveValue('Call us back, {{name}}.')
    expect(screen.getByLabelText('Name', { selector: '#field-0-name' })).toHaveValue('reason')
    expect(screen.getByRole('heading', { name: 'Edit agent' })).toBeInTheDocument()

    server.use(
      http.put(url('agents/a1'), () =>
        HttpResponse.json({ success: false, message: 'The selected voice is not available.', errors: { voice: ['The selected voice is not available.'] } }, { status: 422 }),
      ),
    )
    await user.clear(screen.getByLabelText('Name', { selector: '#agent-name' }))
    await user.type(screen.getByLabelText('Name', { selector: '#agent-name' }), 'Visit reminder')
    await user.click(screen.getByRole('button', { name: 'Save agent' }))
    await waitFor(() => expect(document.getElementById('agent-voice-error')).toHaveTextContent('The selected voice is not available.'))

    server.resetHandlers()
    server.use(http.get(url('voices'), () => HttpResponse.json({ voices: VOICES })), ...agentHandlers(store))
    await user.click(screen.getByRole('button', { name: 'Save agent' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/agents'))
    expect(store[0]?.name).toBe('Visit reminder')
    expect(store[0]?.voicemail_message).toBe('Call us back, {{name}}.')
  })

  it('warns when the saved webhook URL is on a private address', async () => {
    const store = [makeAgent({ id: 'a1', name: 'Reminder', prompt: 'Remind them of the visit.' })]
    server.use(...agentHandlers(store))
    const notice = 'This URL is on a private address (127.0.0.1 is a loopback address). Allowed: the server listens on loopback only.'
    server.use(http.put(url('agents/a1'), () => HttpResponse.json({ success: true, message: 'Agent updated successfully', data: store[0], notice })))
    const warning = vi.spyOn(notify, 'warning')
    const user = userEvent.setup()
    const { router } = renderApp('/dashboard/agents/a1')
    expect(await screen.findByLabelText('Name', { selector: '#agent-name' })).toHaveValue('Reminder')
    await user.click(screen.getByRole('button', { name: 'Save agent' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/agents'))
    expect(warning).toHaveBeenCalledWith(notice, 'A private webhook address')
    warning.mockRestore()
  })

  it('says when the agent does not exist', async () => {
    server.use(...agentHandlers([]))
    renderApp('/dashboard/agents/nope')
    expect(await screen.findByRole('alert')).toHaveTextContent('Agent not found.')
  })
})
