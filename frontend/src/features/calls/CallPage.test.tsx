import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { saveSession } from '@/lib/session'
import { calls, server, url } from '@/testing/msw'
import { renderApp } from '@/testing/render'

// The waveform draws on a canvas from decoded audio, which jsdom has neither of: the page's
// clock is its own <audio> element, which these tests drive.
const surfer = vi.hoisted(() => ({ create: vi.fn(), destroy: vi.fn() }))
vi.mock('wavesurfer.js', () => ({
  default: {
    create: (options: unknown) => {
      surfer.create(options)
      return { on: () => () => undefined, destroy: surfer.destroy }
    },
  },
}))

/** A finished call: 10 s of wall time recorded as 20 s of audio (a sandbox call at speed 2). */
const page = (extra: Record<string, unknown> = {}) => ({
  call_id: 'c1',
  kind: 'dashboard',
  from: '+18885550100',
  to: '+15551230000',
  created_at: '2026-11-24T10:00:00Z',
  status: 'completed',
  outcome: 'completed',
  answered_by: 'human',
  corrected_duration: 75,
  call_length: 80,
  record_url: '/api/v1/play-recording/c1',
  cost: 0.98,
  max_duration: 2,
  voice: 'joe',
  completed: true,
  prompt: 'You are Sam from Acme Tours.',
  error: null,
  transfer: { transfer_number: null, transfer_list: null, transfer_mode: 'cold', transferred_to: null, transferred_at: null, transfer_status: null, pre_transfer_duration: null, post_transfer_duration: null },
  transcripts: [
    { user: 'assistant', text: 'Hi, this is Sam from Acme Tours.', created_at: '2026-11-24T10:00:00.500Z', seq: 1 },
    { user: 'user', text: 'Yes, Friday at 10 works for me.', created_at: '2026-11-24T10:00:03Z', seq: 2 },
    { user: 'assistant', text: 'Great, you are booked. Goodbye!', created_at: '2026-11-24T10:00:06Z', seq: 3 },
  ],
  latencies: [{ turn: 1, end_of_speech_ms: 300, stt_ms: 450, llm_ms: 10, tts_ms: 240, total_ms: 1000 }],
  analysis: {
    summary: 'Sam booked the city tour for Friday at 10.',
    outcome: 'interested',
    sentiment: 'positive',
    key_facts: [{ fact: 'Yes, Friday at 10 works for me.', lines: [2] }],
    method: 'offline',
    disposition_tag: null,
    fields: {},
  },
  settings: {
    source: 'dashboard',
    prompt: 'You are Sam from Acme Tours.',
    voice: 'joe',
    temperature: 0.7,
    interruption_threshold: 100,
    background_audio: 'null',
    max_duration: 2,
    wait_for_greeting: false,
    first_sentence: null,
    voicemail_action: 'leave_message',
    voicemail_message: null,
    disclosure: null,
    variables: null,
    summary_prompt: null,
    dispositions: null,
    analysis_schema: null,
    agent_id: null,
    agent_name: null,
    campaign_id: null,
    campaign_name: null,
    start_at: null,
  },
  events: [
    { category: 'status', message: 'Call ringing', created_at: '2026-11-24T09:59:58Z' },
    { category: 'call', message: 'Call connected', created_at: '2026-11-24T10:00:00Z' },
    { category: 'call', message: 'User: Yes, Friday at 10 works for me.', created_at: '2026-11-24T10:00:04Z' },
  ],
  times: {
    queued_at: '2026-11-24T09:59:55Z',
    ringing_at: '2026-11-24T09:59:58Z',
    answered_at: '2026-11-24T10:00:00Z',
    ended_at: '2026-11-24T10:00:10Z',
    recording_started_at: '2026-11-24T10:00:00Z',
    recording_ended_at: '2026-11-24T10:00:10Z',
  },
  billing: {
    rate_per_minute: 0.49,
    hold: 0.98,
    billed_seconds: 75,
    billed_minutes: 2,
    cost: 0.98,
    capped: false,
    rule: 'Each started minute connected costs $0.49.',
    explanation: 'Connected 75 s: ceil((75 s - 1 s) / 60) = 2 min x $0.49 = $0.98.',
    ledger: [{ kind: 'hold', amount: -0.98, balance_after: 9.02, created_at: '2026-11-24T09:59:55Z' }],
  },
  owner: null,
  ...extra,
})

/** The audio element's clock, as a browser keeps it: a position the page can set, a length. */
function fakeMedia() {
  let position = 0
  const play = vi.fn(() => Promise.resolve())
  vi.spyOn(HTMLMediaElement.prototype, 'currentTime', 'get').mockImplementation(() => position)
  vi.spyOn(HTMLMediaElement.prototype, 'currentTime', 'set').mockImplementation((value: number) => {
    position = value
  })
  vi.spyOn(HTMLMediaElement.prototype, 'duration', 'get').mockImplementation(() => 20)
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(play)
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined)
  return { play, position: () => position }
}

function audio(): HTMLAudioElement {
  return screen.getByTestId('call-audio') as HTMLAudioElement
}

beforeEach(() => saveSession('1|x', { id: 1, name: 'Grace', email: 'g@example.com', role: 'user' }))
afterEach(() => vi.restoreAllMocks())

describe('A call’s page', () => {
  it('seeks the recording to a transcript line clicked, and highlights the line being played', async () => {
    const media = fakeMedia()
    server.use(http.get(url('call/c1/page'), () => HttpResponse.json({ success: true, data: page() })))
    const user = userEvent.setup()
    renderApp('/dashboard/calls/c1')
    expect(await screen.findByRole('heading', { name: /Call to \+15551230000/ })).toBeInTheDocument()
    expect(surfer.create).toHaveBeenCalledWith(expect.objectContaining({ media: audio(), url: `${window.location.origin}/api/v1/play-recording/c1` }))
    act(() => {
      audio().dispatchEvent(new Event('loadedmetadata'))
    })

    // 3 s of wall time into a recording twice as long as the wall time: 6 s into the audio.
    await user.click(screen.getByTestId('transcript-line-2'))
    expect(media.position()).toBe(6)
    expect(media.play).toHaveBeenCalled()
    expect(screen.getByTestId('transcript-line-2')).toHaveAttribute('aria-current', 'true')

    // The highlight follows the audio's clock.
    const playedTo = (seconds: number) =>
      act(() => {
        audio().currentTime = seconds
        audio().dispatchEvent(new Event('timeupdate'))
      })
    playedTo(12.5)
    expect(screen.getByTestId('transcript-line-3')).toHaveAttribute('aria-current', 'true')
    expect(screen.getByTestId('transcript-line-2')).not.toHaveAttribute('aria-current')
    playedTo(0.2)
    expect(screen.getByTestId('synced-transcript').querySelector('[aria-current]')).toBeNull()
    playedTo(1.5)
    expect(screen.getByTestId('transcript-line-1')).toHaveAttribute('aria-current', 'true')

    // From the keyboard: a line is a button (Enter seeks); the waveform is a slider.
    screen.getByTestId('transcript-line-3').focus()
    await user.keyboard('{Enter}')
    expect(media.position()).toBe(12)
    fireEvent.keyDown(screen.getByRole('slider', { name: 'Recording position' }), { key: 'ArrowLeft' })
    expect(media.position()).toBe(7)

    // A key fact plays the line it comes from.
    await user.click(within(screen.getByTestId('call-key-facts')).getByRole('button', { name: 'Play line 2' }))
    expect(media.position()).toBe(6)
  })

  it('shows the analysis, the cost with its rule, the settings and the events, and runs the analysis again', async () => {
    fakeMedia()
    server.use(
      http.get(url('call/c1/page'), () => HttpResponse.json({ success: true, data: page() })),
      http.post(url('analyze-call/c1'), () =>
        HttpResponse.json({ success: true, data: { ...page().analysis, summary: 'A fresh summary.', sentiment: 'neutral' } }),
      ),
    )
    const user = userEvent.setup()
    renderApp('/dashboard/calls/c1')
    expect(await screen.findByTestId('call-analysis-summary')).toHaveTextContent('Sam booked the city tour for Friday at 10.')
    expect(screen.getByTestId('call-analysis-outcome')).toHaveTextContent('interested')
    expect(screen.getByTestId('call-outcome')).toHaveTextContent('The call has completed')
    expect(screen.getByTestId('call-cost-explanation')).toHaveTextContent('ceil((75 s - 1 s) / 60) = 2 min x $0.49 = $0.98')
    expect(screen.getByTestId('call-cost-amount')).toHaveTextContent('$0.98')
    expect(within(screen.getByTestId('call-settings')).getByText('2 min')).toBeInTheDocument()
    const timeline = screen.getByTestId('call-timeline')
    expect(within(timeline).getByText('Call connected')).toBeInTheDocument()
    expect(within(timeline).queryByText('User: Yes, Friday at 10 works for me.')).not.toBeInTheDocument()
    await user.click(within(timeline).getByRole('checkbox'))
    expect(within(timeline).getByText('User: Yes, Friday at 10 works for me.')).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Run analysis again' }))
    await waitFor(() => expect(screen.getByTestId('call-analysis-summary')).toHaveTextContent('A fresh summary.'))
    const posted = calls.find((c) => c.method === 'POST' && c.path === 'analyze-call/c1')
    expect(posted?.body).toEqual({ refresh: true })
  })

  it('gives the call one length, the seconds it is billed for, wherever the page shows one', async () => {
    fakeMedia() // the recording is 20 s long: not a second figure for the call
    server.use(http.get(url('call/c1/page'), () => HttpResponse.json({ success: true, data: page() })))
    renderApp('/dashboard/calls/c1')
    expect(await screen.findByTestId('call-length')).toHaveTextContent('1:15 connected')
    const text = screen.getByTestId('call-page').textContent ?? ''
    expect(text).toContain('75 s') // the cost's working, in the same seconds
    for (const other of ['1:14', '0:20', '0:19']) expect(text).not.toContain(other)
  })

  it.each([
    ['dashboard', 'placed from Send Call'],
    ['api', 'placed from the API'],
    ['batch', 'placed from an API batch'],
    ['campaign', 'placed from a campaign'],
    ['cli', 'placed from the command line'],
  ])('says where the call came from (%s)', async (kind, said) => {
    server.use(http.get(url('call/c1/page'), () => HttpResponse.json({ success: true, data: page({ kind }) })))
    renderApp('/dashboard/calls/c1')
    expect(await screen.findByTestId('call-kind')).toHaveTextContent(said)
  })

  it.each([
    ['null', 'Default (quiet phone static)'],
    ['office', 'Office'],
    ['none', 'None'],
  ])('shows the background audio the call had (%s)', async (value, label) => {
    server.use(http.get(url('call/c1/page'), () => HttpResponse.json({ success: true, data: page({ settings: { ...page().settings, background_audio: value } }) })))
    renderApp('/dashboard/calls/c1')
    expect(await screen.findByTestId('call-background')).toHaveTextContent(new RegExp(`^${label.replace(/[()]/g, '\\$&')}$`))
  })

  it('shows a transferred call: the person\'s lines, the transfer with its two parts, and its action lines', async () => {
    server.use(
      http.get(url('call/c1/page'), () =>
        HttpResponse.json({
          success: true,
          data: page({
            outcome: 'transferred',
            transfer: { transfer_number: '+15005550011', transfer_list: null, transfer_mode: 'warm', transferred_to: '+15005550011', transferred_at: '2026-11-24T10:00:04Z', transfer_status: 'completed', pre_transfer_duration: 20, post_transfer_duration: 55, transfer_ended_by: 'person' },
            transcripts: [
              { user: 'user', text: 'Can I speak to a real person?', created_at: '2026-11-24T10:00:02Z', seq: 1 },
              { user: 'assistant', text: "Of course, I'll connect you now.", created_at: '2026-11-24T10:00:03Z', seq: 2 },
              { user: 'person', text: 'Hi, this is Jordan in sales.', created_at: '2026-11-24T10:00:08Z', seq: 3 },
            ],
            events: [
              {
                category: 'action',
                message: 'Transferring to a person',
                created_at: '2026-11-24T10:00:04Z',
                action: { kind: 'transfer', name: 'transfer', status: 'started', summary: 'Transferring to a person', arguments: { to: '+15005550011', mode: 'warm' } },
              },
              { category: 'action', message: 'Transfer to +15005550011: the person took the call', created_at: '2026-11-24T10:01:00Z' },
              {
                category: 'action',
                message: 'check_calendar answered in 312 ms',
                created_at: '2026-11-24T10:00:01Z',
                action: { kind: 'tool', name: 'check_calendar', status: 'succeeded', summary: 'check_calendar answered in 312 ms', arguments: { day: 'Tuesday' }, result: { free: true }, latency_ms: 312 },
              },
            ],
          }),
        }),
      ),
    )
    renderApp('/dashboard/calls/c1')
    const transfer = await screen.findByTestId('call-transfer')
    expect(within(transfer).getByText('+15005550011')).toBeInTheDocument()
    expect(within(transfer).getByText('Warm: the person heard a summary first')).toBeInTheDocument()
    expect(within(transfer).getByText('The person took the call')).toBeInTheDocument()
    expect(within(transfer).getByText('0:20')).toBeInTheDocument()
    expect(within(transfer).getByText('0:55')).toBeInTheDocument()
    expect(screen.getByText(/3\. Person/)).toBeInTheDocument()
    expect(within(transfer).getByText('The person, who hung up')).toBeInTheDocument()
    const timeline = screen.getByTestId('call-timeline')
    expect(within(timeline).getByText('Transfer to +15005550011: the person took the call')).toBeInTheDocument()
    // Each action's name, arguments, status and latency, not only its line.
    const facts = within(timeline).getAllByTestId('action-facts')
    expect(facts.map((f) => f.textContent)).toEqual(['startedtransferto: +15005550011, mode: warm', 'succeededcheck_calendarday: Tuesday312 ms'])
  })

  it('says when the call is not found (another user’s call answers 404)', async () => {
    server.use(http.get(url('call/theirs/page'), () => HttpResponse.json({ success: false, message: 'Call not found.' }, { status: 404 })))
    renderApp('/dashboard/calls/theirs')
    const notFound = await screen.findByTestId('call-not-found')
    expect(notFound).toHaveTextContent('Call not found')
    expect(within(notFound.parentElement as HTMLElement).getByRole('link', { name: /Call Logs/ })).toHaveAttribute('href', '/dashboard/call-logs')
  })

  it('shows a call without a recording, with its transcript as plain lines', async () => {
    server.use(
      http.get(url('call/c1/page'), () =>
        HttpResponse.json({ success: true, data: page({ record_url: null, times: { ...page().times, recording_started_at: null } }) }),
      ),
    )
    renderApp('/dashboard/calls/c1')
    expect(await screen.findByText(/This call has no recording/)).toBeInTheDocument()
    expect(screen.getByTestId('transcript-line-1').tagName).toBe('DIV')
    expect(screen.queryByTestId('call-audio')).not.toBeInTheDocument()
  })
})
