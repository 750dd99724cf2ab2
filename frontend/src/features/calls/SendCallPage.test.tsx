import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { saveSession } from '@/lib/session'
import { calls, server, url } from '@/testing/msw'
import { socket } from '@/testing/fakeSocket'
import { renderApp } from '@/testing/render'


const VOICES = [
  { name: 'joe', description: 'American male', engine: 'piper', gender: 'male', recording_url: '/api/v1/voices/joe/sample.mp3' },
  { name: 'amy', description: '', engine: 'piper', gender: 'female', recording_url: '/api/v1/voices/amy/sample.mp3' },
]

function fakeApi(balance: number) {
  server.use(
    http.get(url('voices'), () => HttpResponse.json({ voices: VOICES })),
    http.get(url('user/1/stats'), () => HttpResponse.json({ success: true, data: { name: 'Grace', balance, totalCalls: 0, totalMinutesUsed: 0 } })),
    http.post(url('send-call'), () => HttpResponse.json({ success: true, message: 'Call initiated', callId: 'c1', from: '+18885550100', balance: balance - 14.7 })),
    http.post(url('stop-call/c1'), () => HttpResponse.json({ success: true, message: 'Call stopped successfully' })),
    http.get(url('call-details/c1'), () =>
      HttpResponse.json({
        success: true,
        data: {
          call_id: 'c1',
          transcripts: [
            { user: 'assistant', text: 'Hi, this is Sarah from Bright Dental.', created_at: '2026-11-21T10:00:01Z', seq: 1 },
            { user: 'user', text: 'Oh hello, yes?', created_at: '2026-11-21T10:00:04Z', seq: 2 },
          ],
          completed: false,
        },
      }),
    ),
  )
}

async function fillForm(user: ReturnType<typeof userEvent.setup>, phone: string, prompt: string) {
  await user.type(screen.getByLabelText('What should the agent do?'), prompt)
  await user.type(screen.getByLabelText('Phone number'), phone)
}

/** Send Call with a call placed to +15551234567 (the server's answer for it set up first). */
async function startCall() {
  const user = userEvent.setup()
  renderApp('/dashboard/send-call')
  await screen.findByRole('radio', { name: /joe/ })
  await fillForm(user, '+15551234567', 'Confirm tomorrow at 3 pm')
  await user.click(screen.getByRole('button', { name: 'Send Call' }))
  expect(await screen.findByText('Calling…')).toBeInTheDocument()
}

const webhook = (message: string, category = 'call', callId = 'c1') => act(() => socket.emit('webhook-event', { callId, message, category, completed: false }))
const caption = (key: string, speaker: 'assistant' | 'user', text: string, at: string, callId = 'c1') =>
  act(() => socket.emit('transcript-live', { callId, key, speaker, text, at, final: false }))
const kept = (key: string, seq: number, speaker: 'assistant' | 'user', text: string, at: string, callId = 'c1') =>
  act(() =>
    socket.emit('webhook-event', {
      callId,
      message: `${speaker === 'assistant' ? 'Assistant' : 'User'}: ${text}`,
      category: 'call',
      completed: false,
      speaker,
      text,
      seq,
      key,
      at,
      final: true,
    }),
  )

beforeEach(() => saveSession('1|x', { id: 1, name: 'Grace', email: 'g@example.com', role: 'user' }))

describe('Send call', () => {
  it('lists the voices (first chosen), plays and stops a sample, and refuses bad input with the spec messages', async () => {
    const play = vi.spyOn(window.HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined)
    const pause = vi.spyOn(window.HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined)
    fakeApi(100)
    const user = userEvent.setup()
    renderApp('/dashboard/send-call')
    const joe = await screen.findByRole('radio', { name: /joe/ })
    expect(joe).toBeChecked()
    expect(screen.getByText('No description available')).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Play sample of joe' }))
    expect(play).toHaveBeenCalledTimes(1)
    await user.click(screen.getByRole('button', { name: 'Stop sample of joe' }))
    expect(pause).toHaveBeenCalled()
    expect(screen.getByRole('button', { name: 'Play sample of joe' })).toBeInTheDocument()

    const send = screen.getByRole('button', { name: 'Send Call' })
    expect(send).toBeDisabled() // no number yet
    await fillForm(user, '+1555', 'Confirm the appointment please')
    await user.click(send)
    const format = 'Phone number must start with "+" followed by 10-15 digits (e.g., +15551234567)'
    // In the "Validation Error" toast, and beside the field.
    await waitFor(() => expect(screen.getAllByText(format)).toHaveLength(2))
    expect(screen.getByLabelText('Phone number')).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByLabelText('Phone number')).toHaveAccessibleDescription(format)

    await user.clear(screen.getByLabelText('Phone number'))
    await user.type(screen.getByLabelText('Phone number'), '+15551234567')
    await user.clear(screen.getByLabelText('What should the agent do?'))
    await user.type(screen.getByLabelText('What should the agent do?'), '  short   ')
    await user.click(send)
    await waitFor(() => expect(screen.getAllByText('The prompt must be at least 10 characters long')).toHaveLength(2))
    expect(screen.getByLabelText('What should the agent do?')).toHaveAccessibleDescription('The prompt must be at least 10 characters long')
    expect(calls.some((c) => c.path === 'send-call')).toBe(false)
  })

  it('starts the max duration at what the balance covers, and refuses a longer call with the required and available amounts', async () => {
    fakeApi(5)
    const user = userEvent.setup()
    renderApp('/dashboard/send-call')
    expect(await screen.findByTestId('send-balance')).toHaveTextContent('$5.00')
    // $5.00 holds 10 minutes at $0.49, not the default 30: the field starts there and says why.
    const maxDuration = screen.getByLabelText('Max duration')
    await waitFor(() => expect(maxDuration).toHaveValue('10'))
    expect(screen.getByTestId('max-duration-fitted')).toHaveTextContent('Set to 10 min, the most your balance of $5.00 covers (the usual default is 30 min).')
    expect(maxDuration).toHaveAccessibleDescription(/Holds \$4\.90 until the call ends.*Set to 10 min/)
    // The user raises it: the note goes, and the send is refused with the spec's Balance Error.
    fireEvent.change(maxDuration, { target: { value: '30' } })
    expect(screen.queryByTestId('max-duration-fitted')).toBeNull()
    await fillForm(user, '+15551234567', 'Confirm the appointment please')
    await user.click(screen.getByRole('button', { name: 'Send Call' }))
    expect(await screen.findByText('Balance Error')).toBeInTheDocument()
    const refusal = 'Insufficient balance to make this call. Required: $14.70, Available: $5.00. Please add funds.'
    await waitFor(() => expect(screen.getAllByText(refusal)).toHaveLength(2)) // the toast, and beside the balance
    expect(screen.getByRole('link', { name: 'Add funds on the Billing page' })).toHaveAttribute('href', '/dashboard/billing')
    expect(screen.getByTestId('balance-covers')).toHaveTextContent('Your balance covers calls of up to 10 min: lower the max duration, or add funds.')
    expect(calls.some((c) => c.path === 'send-call')).toBe(false)
  })

  it('sends the whole payload, follows the call live from the socket and ends with the balance the server pushed', async () => {
    fakeApi(100)
    const user = userEvent.setup()
    renderApp('/dashboard/send-call')
    await screen.findByRole('radio', { name: /amy/ })
    await user.click(screen.getByRole('radio', { name: /amy/ }))
    await fillForm(user, '+15551234567', '  Confirm tomorrow at 3 pm  ')
    await user.click(screen.getByRole('switch'))
    await user.click(screen.getByRole('button', { name: 'Send Call' }))

    expect(await screen.findByText('Balance sufficient: $85.30 available.')).toBeInTheDocument()
    const sent = calls.find((c) => c.path === 'send-call')
    await waitFor(() => expect(sent?.body).toEqual({
      userId: 1,
      phone: '+15551234567',
      prompt: 'Confirm tomorrow at 3 pm',
      max_duration: 30,
      voice: 'amy',
      language: 'en-US',
      waitGreeting: true,
      temperature: 0.7,
      interruption_threshold: 100,
      background_audio: 'null',
    }))
    expect(screen.getByTestId('send-balance')).toHaveTextContent('$85.30')
    // During the call: what is available and what the call holds (30 min x $0.49).
    expect(screen.getByTestId('send-held')).toHaveTextContent('Held for this call$14.70')
    // The button says what is happening: dialling, then on the call.
    expect(screen.getByRole('button', { name: 'Calling...' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Stop Call' })).toBeEnabled()
    expect(screen.getByLabelText('Phone number')).toBeDisabled()
    expect(screen.getByText('Calling…')).toBeInTheDocument()

    webhook('Call connected')
    expect(screen.getByText('Listening…')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'On call' })).toBeDisabled()
    webhook('Agent spoke', 'call', 'someone-elses-call') // not this page's call: ignored
    webhook('Agent spoke')
    const transcript = screen.getByTestId('live-transcript')
    expect(await within(transcript).findByText('Hi, this is Sarah from Bright Dental.')).toBeInTheDocument()
    const bubbles = transcript.querySelectorAll('[data-speaker]')
    expect([...bubbles].map((b) => b.getAttribute('data-speaker'))).toEqual(['agent', 'user'])
    expect(bubbles[0]?.parentElement).toHaveClass('justify-end')
    expect(bubbles[1]?.parentElement).toHaveClass('justify-start')
    expect(calls.filter((c) => c.path === 'call-details/someone-elses-call')).toHaveLength(0)

    act(() => socket.emit('balance-update', { userId: 1, newBalance: 99.02 }))
    expect(screen.getByTestId('send-balance')).toHaveTextContent('$99.02')
    act(() => socket.emit('balance-update', { userId: 2, newBalance: 1 }))
    expect(screen.getByTestId('send-balance')).toHaveTextContent('$99.02')

    webhook('Call duration & price: 75 s, $0.98')
    expect(screen.getByTestId('call-timer')).toHaveTextContent('01:15')
    webhook('Closing call stream')
    expect(await screen.findByText('The call has completed. You can now start a new call.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Send Call' })).toBeEnabled()
    // The lines already shown are not added twice by the final fetch.
    expect(within(transcript).getAllByText('Oh hello, yes?')).toHaveLength(1)
  })

  it('tidies a number written with spaces or brackets to E.164, shows it, and dials it', async () => {
    fakeApi(100)
    const user = userEvent.setup()
    renderApp('/dashboard/send-call')
    await screen.findByRole('radio', { name: /joe/ })
    await fillForm(user, '(555) 123-0000', 'Confirm the appointment please')
    await user.tab()
    expect(screen.getByLabelText('Phone number')).toHaveValue('+15551230000')
    await user.clear(screen.getByLabelText('Phone number'))
    await user.type(screen.getByLabelText('Phone number'), '+1 555 123 0001')
    await user.click(screen.getByRole('button', { name: 'Send Call' }))
    await waitFor(() => expect(calls.find((c) => c.path === 'send-call')?.body).toMatchObject({ phone: '+15551230001' }))
    expect(screen.getByLabelText('Phone number')).toHaveValue('+15551230001')
  })

  it('picks a transfer number for the call, and says a bad one beside its field', async () => {
    fakeApi(100)
    const user = userEvent.setup()
    renderApp('/dashboard/send-call')
    await screen.findByRole('radio', { name: /joe/ })
    await fillForm(user, '+15551230000', 'Confirm the appointment please')
    const transfer = screen.getByLabelText('Transfer number (optional)')
    await user.type(transfer, 'the front desk')
    await user.click(screen.getByRole('button', { name: 'Send Call' }))
    expect(await screen.findAllByText('Enter the transfer number with its country code, e.g. "+15551234567".')).not.toHaveLength(0)
    expect(calls.some((c) => c.path === 'send-call')).toBe(false)
    await user.clear(transfer)
    await user.type(transfer, '+1 500 555 0011')
    await user.click(screen.getByRole('button', { name: 'Send Call' }))
    await waitFor(() => expect(calls.find((c) => c.path === 'send-call')?.body).toMatchObject({ transfer_number: '+1 500 555 0011' }))
  })

  it("puts the server's field messages beside their fields", async () => {
    fakeApi(100)
    server.use(
      http.post(url('send-call'), () =>
        HttpResponse.json({ success: false, message: 'The selected voice is not available.', errors: { voice: ['The selected voice is not available.'], prompt: ['The prompt is too long.'] } }, { status: 422 }),
      ),
    )
    const user = userEvent.setup()
    renderApp('/dashboard/send-call')
    await screen.findByRole('radio', { name: /joe/ })
    await fillForm(user, '+15551230000', 'Confirm the appointment please')
    await user.click(screen.getByRole('button', { name: 'Send Call' }))
    await waitFor(() => expect(screen.getByLabelText('What should the agent do?')).toHaveAccessibleDescription('The prompt is too long.'))
    expect(await screen.findByText('The selected voice is not available.')).toBeInTheDocument() // the toast
  })

  it('stops the call it placed', async () => {
    fakeApi(100)
    const user = userEvent.setup()
    renderApp('/dashboard/send-call')
    await screen.findByRole('radio', { name: /joe/ })
    await fillForm(user, '+15551234567', 'Confirm the appointment please')
    await user.click(screen.getByRole('button', { name: 'Send Call' }))
    await screen.findByRole('button', { name: 'Calling...' })
    await user.click(screen.getByRole('button', { name: 'Stop Call' }))
    expect(await screen.findByText('Call stopped successfully')).toBeInTheDocument()
    expect(calls.map((c) => `${c.method} ${c.path}`)).toContain('POST stop-call/c1')
    expect(screen.getByRole('button', { name: 'Send Call' })).toBeEnabled()
  })

  it('shows the server message when the send is refused', async () => {
    fakeApi(100)
    server.use(http.post(url('send-call'), () => HttpResponse.json({ success: false, message: 'Carrier unavailable', errors: {} }, { status: 503 })))
    const user = userEvent.setup()
    renderApp('/dashboard/send-call')
    await screen.findByRole('radio', { name: /joe/ })
    await fillForm(user, '+15551234567', 'Confirm the appointment please')
    await user.click(screen.getByRole('button', { name: 'Send Call' }))
    expect(await screen.findByText('Carrier unavailable')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Send Call' })).toBeEnabled()
  })

  it('shows the words as they are spoken, in the order the lines began, and keeps each line once', async () => {
    fakeApi(100)
    await startCall()
    webhook('Call connected')
    const transcript = screen.getByTestId('live-transcript')
    caption('a1', 'assistant', 'Hi,', '2026-11-21T10:00:01Z')
    caption('a1', 'assistant', 'Hi, this is', '2026-11-21T10:00:01Z')
    caption('a1', 'assistant', 'Hi, this is', '2026-11-21T10:00:01Z', 'someone-elses-call')
    expect(within(transcript).getByText('Hi, this is')).toBeInTheDocument()
    expect(transcript.querySelector('[data-in-flight]')).toHaveAttribute('data-speaker', 'agent')
    // The callee's short answer is kept before the agent's sentence it began after.
    caption('u1', 'user', 'Yes?', '2026-11-21T10:00:04Z')
    kept('u1', 1, 'user', 'Yes?', '2026-11-21T10:00:04Z')
    caption('a1', 'assistant', 'Hi, this is Sarah.', '2026-11-21T10:00:01Z')
    kept('a1', 2, 'assistant', 'Hi, this is Sarah.', '2026-11-21T10:00:01Z')
    caption('a1', 'assistant', 'Hi, this is', '2026-11-21T10:00:01Z') // late: ignored
    const bubbles = [...transcript.querySelectorAll('[data-speaker]')]
    expect(bubbles.map((b) => b.getAttribute('data-speaker'))).toEqual(['agent', 'user'])
    expect(bubbles[0]).toHaveTextContent('Hi, this is Sarah.')
    expect(transcript.querySelector('[data-in-flight]')).toBeNull()
    expect(within(transcript).getByText('Hi, this is Sarah.').closest('[data-speaker]')?.querySelector('time')).toHaveAttribute('datetime', '2026-11-21T10:00:01Z')
    expect(calls.filter((c) => c.path === 'call-details/c1')).toHaveLength(0) // the lines came with the events
    // Each reply's latency shows under the transcript as it is measured.
    act(() => socket.emit('turn-latency', { callId: 'c1', turn: 1, end_of_speech_ms: 300, stt_ms: 420, llm_ms: 5, tts_ms: 90, total_ms: 910 }))
    expect(await within(screen.getByTestId('turn-latencies')).findAllByText('910 ms')).not.toHaveLength(0)
  })

  it('catches up when the socket reconnects: the lines said while it was away, each once, in order', async () => {
    fakeApi(100)
    await startCall()
    const transcript = screen.getByTestId('live-transcript')
    kept('a1', 1, 'assistant', 'Hi, this is Sarah.', '2026-11-21T10:00:01Z')
    // The socket's API process restarts: "Call connected", line 2 and the kept form of the caption
    // in flight (line 3) are emitted while it is away. The server has them.
    caption('a2', 'assistant', 'Is tomorrow', '2026-11-21T10:00:07Z')
    const line = (seq: number, who: 'assistant' | 'user', text: string, at: string) => ({ user: who, text, created_at: at, seq })
    const live = (transcripts: ReturnType<typeof line>[]) =>
      http.get(url('user/1/live-calls'), () =>
        HttpResponse.json({
          success: true,
          data: [
            {
              call_id: 'c1', status: 'in-progress', to: '+15551234567', prompt: 'Confirm tomorrow at 3 pm', voice: 'joe', language: 'en-US',
              temperature: 0.7, interruption_threshold: 100, background_audio: 'null', max_duration: 30, wait_for_greeting: false,
              created_at: '2026-11-21T10:00:00Z', answered_at: new Date(Date.now() - 12_000).toISOString(), transcripts,
            },
          ],
        }),
      )
    server.use(
      live([
        line(1, 'assistant', 'Hi, this is Sarah.', '2026-11-21T10:00:01Z'),
        line(2, 'user', 'Oh hello?', '2026-11-21T10:00:04Z'),
        line(3, 'assistant', 'Is tomorrow at 3 pm still good?', '2026-11-21T10:00:07Z'),
      ]),
    )
    act(() => socket.emit('reconnect', 1))
    expect(await within(transcript).findByText('Is tomorrow at 3 pm still good?')).toBeInTheDocument()
    expect(calls.filter((c) => c.path === 'user/1/live-calls').length).toBeGreaterThanOrEqual(2) // on load, and the catch-up
    // The answer it missed starts the timer from the server's time.
    expect(screen.getByTestId('call-timer')).toHaveTextContent(/00:1[2-5]/)
    // The events after it carry on; a line already caught up that comes again is not doubled.
    kept('a2', 3, 'assistant', 'Is tomorrow at 3 pm still good?', '2026-11-21T10:00:07Z')
    kept('u2', 4, 'user', 'Yes, it is.', '2026-11-21T10:00:11Z')
    const bubbles = [...transcript.querySelectorAll('[data-speaker]')]
    expect(bubbles.map((b) => b.textContent)).toEqual([
      expect.stringContaining('Hi, this is Sarah.'),
      expect.stringContaining('Oh hello?'),
      expect.stringContaining('Is tomorrow at 3 pm still good?'),
      expect.stringContaining('Yes, it is.'),
    ])
    expect(transcript.querySelector('[data-in-flight]')).toBeNull() // the orphaned caption is gone
  })

  it('ends a call whose end came while the socket was away, once it reconnects', async () => {
    fakeApi(100)
    server.use(
      http.get(url('call-details/c1'), () =>
        HttpResponse.json({
          success: true,
          data: {
            call_id: 'c1',
            status: 'completed',
            outcome: 'completed',
            corrected_duration: 42,
            transcripts: [
              { user: 'assistant', text: 'Hi, this is Sarah from Bright Dental.', created_at: '2026-11-21T10:00:01Z', seq: 1 },
              { user: 'user', text: 'Bye now.', created_at: '2026-11-21T10:00:04Z', seq: 2 },
            ],
            completed: true,
          },
        }),
      ),
    )
    await startCall()
    webhook('Call connected')
    // Away: the rest of the call; the call is no longer among the live ones. Its closing, in flight
    // as the socket came back, arrives too: the call ends once.
    act(() => socket.emit('reconnect', 1))
    webhook('Closing call stream')
    expect(await screen.findByText('The call has completed. You can now start a new call.')).toBeInTheDocument()
    await act(() => new Promise((resolve) => setTimeout(resolve, 200)))
    expect(screen.getAllByText('The call has completed. You can now start a new call.')).toHaveLength(1)
    expect(screen.getByRole('button', { name: 'Send Call' })).toBeEnabled()
    expect(within(screen.getByTestId('live-transcript')).getByText('Bye now.')).toBeInTheDocument()
    expect(screen.getByTestId('call-timer')).toHaveTextContent('00:42')
  })

  it('picks up a call still going on after a reload: its settings, timer and transcript, and stops it', async () => {
    fakeApi(100)
    const answered = new Date(Date.now() - 65_000).toISOString()
    server.use(
      http.get(url('user/1/live-calls'), () =>
        HttpResponse.json({
          success: true,
          data: [
            {
              call_id: 'c1',
              status: 'in-progress',
              to: '+15551234567',
              prompt: 'Confirm tomorrow at 3 pm',
              voice: 'amy',
              language: 'en-US',
              temperature: 0.4,
              interruption_threshold: 120,
              background_audio: 'office',
              max_duration: 5,
              wait_for_greeting: true,
              created_at: answered,
              answered_at: answered,
              transcripts: [{ user: 'assistant', text: 'Hi, this is Sarah from Bright Dental.', created_at: answered, seq: 1 }],
            },
          ],
        }),
      ),
    )
    const user = userEvent.setup()
    renderApp('/dashboard/send-call')
    expect(await screen.findByText('Your call to +15551234567 is still in progress.')).toBeInTheDocument()
    const transcript = screen.getByTestId('live-transcript')
    expect(within(transcript).getByText('Hi, this is Sarah from Bright Dental.')).toBeInTheDocument()
    expect(screen.getByLabelText('What should the agent do?')).toHaveValue('Confirm tomorrow at 3 pm')
    expect(screen.getByLabelText('Phone number')).toHaveValue('+15551234567')
    expect(screen.getByLabelText('Phone number')).toBeDisabled()
    expect(screen.getByTestId('call-timer')).toHaveTextContent(/01:0[5-9]/)
    // The socket carries on from there.
    kept('u1', 2, 'user', 'Who is this?', new Date().toISOString())
    expect(within(transcript).getByText('Who is this?')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Stop Call' }))
    expect(await screen.findByText('Call stopped successfully')).toBeInTheDocument()
    expect(calls.some((c) => c.path === 'stop-call/c1')).toBe(true)
    expect(screen.getByRole('button', { name: 'Send Call' })).toBeEnabled()
  })
  it('a starter credit places its first call with the form as it comes: the max duration starts at 2 min', async () => {
    fakeApi(1)
    const user = userEvent.setup()
    renderApp('/dashboard/send-call')
    await screen.findByRole('radio', { name: /joe/ })
    await waitFor(() => expect(screen.getByLabelText('Max duration')).toHaveValue('2'))
    expect(screen.getByTestId('max-duration-fitted')).toHaveTextContent('Set to 2 min, the most your balance of $1.00 covers')
    expect(screen.queryByTestId('balance-covers')).toBeNull() // nothing to fix before sending
    await fillForm(user, '+15551234567', 'Confirm the appointment please')
    await user.click(screen.getByRole('button', { name: 'Send Call' }))
    await screen.findByRole('button', { name: 'Calling...' })
    await waitFor(() => expect(calls.find((c) => c.path === 'send-call')?.body).toMatchObject({ max_duration: 2 }))
    expect(screen.getByText('Your balance is low after this call: $0.02. Consider adding funds.')).toBeInTheDocument()
    // What is left while the call holds its minutes is no reason to tell the user to add funds.
    expect(screen.queryByTestId('balance-covers')).toBeNull()
  })

  it('a balance under one minute starts at 1 min and the send gets the Balance Error', async () => {
    fakeApi(0.3)
    const user = userEvent.setup()
    renderApp('/dashboard/send-call')
    await screen.findByRole('radio', { name: /joe/ })
    await waitFor(() => expect(screen.getByLabelText('Max duration')).toHaveValue('1'))
    expect(screen.queryByTestId('max-duration-fitted')).toBeNull()
    expect(screen.getByTestId('balance-covers')).toHaveTextContent('Your balance covers no call yet: add funds.')
    await fillForm(user, '+15551234567', 'Confirm the appointment please')
    await user.click(screen.getByRole('button', { name: 'Send Call' }))
    expect(await screen.findByText('Balance Error')).toBeInTheDocument()
    expect(screen.getAllByText('Insufficient balance to make this call. Required: $0.49, Available: $0.30. Please add funds.')).toHaveLength(2)
    expect(calls.some((c) => c.path === 'send-call')).toBe(false)
  })

  it('a balance that holds the default keeps 30 min and says nothing about it', async () => {
    fakeApi(100)
    renderApp('/dashboard/send-call')
    expect(await screen.findByTestId('send-balance')).toHaveTextContent('$100.00')
    expect(screen.getByLabelText('Max duration')).toHaveValue('30')
    expect(screen.queryByTestId('max-duration-fitted')).toBeNull()
  })

  it('brings the transcript into view and focus when the call starts, and links the finished call to its page', async () => {
    const scrolled: Element[] = []
    const original = Element.prototype.scrollIntoView
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this)
    }
    try {
      fakeApi(100)
      await startCall()
      const panel = screen.getByRole('region', { name: 'Transcript' })
      expect(scrolled).toEqual([panel])
      expect(panel).toHaveFocus()
      expect(within(panel).getByTestId('live-transcript')).toBeInTheDocument()
      expect(screen.queryByTestId('finished-call-link')).toBeNull() // not while it goes on
      webhook('Call connected')
      webhook('Closing call stream')
      expect(await screen.findByText('The call has completed. You can now start a new call.')).toBeInTheDocument()
      expect(within(panel).getByRole('link', { name: "Open this call's page" })).toHaveAttribute('href', '/dashboard/calls/c1')
    } finally {
      Element.prototype.scrollIntoView = original
    }
  })

  it("shows the server's notice about the call once, as information beside the live call", async () => {
    fakeApi(100)
    const notice =
      'Outside calling hours in America/New_York (it is 04:00 there); with a real carrier this call would wait until 14:00 your time (Europe/Berlin).'
    server.use(
      http.post(url('send-call'), () =>
        HttpResponse.json({ success: true, message: 'Call initiated', callId: 'c1', from: '+18885550100', balance: 85.3, scheduled_for: null, notice }),
      ),
    )
    await startCall()
    const shown = screen.getByTestId('call-notice')
    expect(shown).toHaveTextContent(notice)
    expect(shown).toHaveAttribute('role', 'status')
    expect(within(screen.getByRole('region', { name: 'Transcript' })).getByTestId('call-notice')).toBe(shown)
    expect(screen.getAllByText(notice)).toHaveLength(1) // not also a toast
    webhook('Call connected')
    expect(screen.getAllByText(notice)).toHaveLength(1)
  })

  it('a calling-hours refusal offers "Call when the window opens": the same call, scheduled for the opening, said in the user\'s zone', async () => {
    fakeApi(100)
    const refusal = 'Outside calling hours for +15551234567 (America/New_York). The next opening is Fri, Nov 27, 14:00 your time (Europe/Berlin).'
    server.use(
      http.post(url('send-call'), async ({ request }) => {
        const body = (await request.clone().json()) as { start_at?: string }
        if (!body.start_at) {
          return HttpResponse.json(
            { success: false, message: refusal, errors: { phone_number: [refusal] }, next_open_at: '2026-11-27T13:00:00+00:00' },
            { status: 400 },
          )
        }
        return HttpResponse.json({ success: true, message: 'Call scheduled', callId: 'c9', from: '+18885550100', balance: 85.3, scheduled_for: '2026-11-27T13:00:00+00:00', notice: null })
      }),
    )
    const user = userEvent.setup()
    renderApp('/dashboard/send-call')
    await screen.findByRole('radio', { name: /joe/ })
    await fillForm(user, '+15551234567', 'Confirm the appointment please')
    await user.click(screen.getByRole('button', { name: 'Send Call' }))
    const box = await screen.findByTestId('window-refusal')
    expect(box).toHaveTextContent(refusal)
    expect(screen.getByRole('button', { name: 'Send Call' })).toBeEnabled() // refused: nothing is going on
    await user.click(within(box).getByRole('button', { name: 'Call when the window opens' }))
    const scheduled = await screen.findByTestId('call-scheduled')
    // 13:00 UTC is 14:00 in Berlin, the user's zone (the profile's).
    expect(scheduled).toHaveTextContent(/Your call to \+15551234567 is scheduled for .*Nov 27.*14:00 \(Europe\/Berlin\)\./)
    expect(within(scheduled).getByRole('link', { name: 'Open its page' })).toHaveAttribute('href', '/dashboard/calls/c9')
    expect(screen.queryByTestId('window-refusal')).toBeNull()
    const sent = calls.filter((c) => c.path === 'send-call')
    expect(sent).toHaveLength(2)
    await waitFor(() => expect(sent[1]?.body).toEqual({ ...(sent[0]?.body as object), start_at: '2026-11-27T13:00:00+00:00' }))
    // A scheduled call is not a live one: the form stays free for another call.
    expect(screen.getByRole('button', { name: 'Send Call' })).toBeEnabled()
    expect(screen.getByLabelText('Phone number')).toBeEnabled()
  })

  it('Recent Calls: a call going on shows its duration and cost so far, ticking; a finished call links to its page', async () => {
    fakeApi(100)
    const answered = new Date(Date.now() - 65_000).toISOString()
    const row = (id: string, completed: boolean, duration: number) => ({
      call_id: id, from: '+18885550100', to: completed ? '+15550000001' : '+15551234567', created_at: answered, corrected_duration: duration, call_length: duration,
      status: completed ? 'completed' : 'in-progress', completed, record_url: null, outcome: completed ? 'completed' : null, answered_by: null, cost: null, max_duration: 30, voice: 'joe',
    })
    server.use(
      http.get(url('user/1/calls'), () =>
        HttpResponse.json({ success: true, data: [row('c1', false, 0), row('c0', true, 95)], pagination: { current_page: 1, last_page: 1, per_page: 2, total: 2 } }),
      ),
      http.get(url('user/1/live-calls'), () =>
        HttpResponse.json({
          success: true,
          data: [
            {
              call_id: 'c1', status: 'in-progress', to: '+15551234567', prompt: 'Confirm tomorrow at 3 pm', voice: 'joe', language: 'en-US', temperature: 0.7,
              interruption_threshold: 100, background_audio: 'null', max_duration: 30, wait_for_greeting: false, created_at: answered, answered_at: answered, transcripts: [],
            },
          ],
        }),
      ),
    )
    renderApp('/dashboard/send-call')
    const list = await screen.findByTestId('recent-calls')
    const [live, done] = within(list).getAllByRole('listitem')
    // 65 s since the answer: 1:04 by the spec's rule (duration minus 1 s), 2 minutes: $0.98.
    await waitFor(() => expect(within(live!).getByTestId('recent-call-duration')).toHaveTextContent(/^1:0[4-6]$/))
    expect(within(live!).getByTestId('recent-call-cost')).toHaveTextContent('$0.98')
    expect(within(live!).queryByRole('link')).toBeNull()
    const first = within(live!).getByTestId('recent-call-duration').textContent
    await waitFor(() => expect(within(live!).getByTestId('recent-call-duration').textContent).not.toBe(first), { timeout: 10000 })
    expect(within(done!).getByTestId('recent-call-duration')).toHaveTextContent('1:34')
    expect(within(done!).getByRole('link', { name: 'Open the call to +15550000001' })).toHaveAttribute('href', '/dashboard/calls/c0')
  })
})
