import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { saveSession } from '@/lib/session'
import { calls, server, url } from '@/testing/msw'
import { renderApp } from '@/testing/render'

function setViewport(desktop: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: desktop,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }))
}

const record = (n: number, extra: Record<string, unknown> = {}) => ({
  call_id: `call-${n}`,
  from: '+18885550100',
  to: `+1555000${String(n).padStart(4, '0')}`,
  created_at: '2026-11-16T10:00:00Z',
  status: 'completed',
  corrected_duration: 61,
  call_length: 66,
  record_url: `/api/v1/play-recording/call-${n}`,
  cost: 0.98,
  max_duration: 2,
  voice: 'joe',
  completed: true,
  ...extra,
})

/** A call's details (call-details/{id}): its record, transcript and how it ended. */
const details = (n: number, transcripts: unknown[], extra: Record<string, unknown> = {}) => ({
  ...record(n),
  outcome: 'completed',
  answered_by: 'human',
  prompt: 'You are Sarah from Bright Dental.',
  error: null,
  transcripts,
  analysis: null,
  latencies: [],
  ...extra,
})

/** Two pages: 7 calls, then 2 (the second page's first has no recording). */
function fakeLogs() {
  const asked: string[] = []
  server.use(
    http.get(url('user/1/calls'), ({ request }) => {
      const params = new URL(request.url).searchParams
      asked.push(params.toString())
      const page = Number(params.get('page'))
      const data =
        page === 1
          ? [record(1, { status: 'no-answer', corrected_duration: 0, record_url: null }), ...Array.from({ length: 6 }, (_, i) => record(i + 2))]
          : [record(8, { record_url: null, status: 'failed' }), record(9)]
      return HttpResponse.json({ success: true, data, pagination: { current_page: page, last_page: 2, per_page: 7, total: 9 } })
    }),
  )
  return asked
}

beforeEach(() => saveSession('1|x', { id: 1, name: 'Grace', email: 'g@example.com', role: 'user' }))
afterEach(() => vi.unstubAllGlobals())

describe('Call logs', () => {
  it('shows 7 calls a page in a table on desktop, with the spec formatting, and pages on', async () => {
    setViewport(true)
    const asked = fakeLogs()
    const user = userEvent.setup()
    renderApp('/dashboard/call-logs')
    const table = await screen.findByTestId('calls-table')
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows).toHaveLength(7)
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['From', 'To', 'Date', 'Duration', 'Cost', 'Status', 'Actions'])
    // 61 s shows as 1:00 and bills as one minute (the spec's minus-one-second rule).
    expect(rows[1]).toHaveTextContent('1:00')
    expect(rows[1]).toHaveTextContent('$0.49')
    expect(rows[0]).toHaveTextContent('no-answer')
    expect(within(rows[0] as HTMLElement).getByRole('button', { name: 'Play recording' })).toBeDisabled()
    expect(within(rows[0] as HTMLElement).getByRole('button', { name: 'Download recording' })).toBeDisabled()
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument()
    expect(asked[0]).toBe('page=1&per_page=7')

    await user.click(screen.getByRole('button', { name: /Next/ }))
    // Queried afresh each try: the page may re-render its rows once more as the answer lands.
    await waitFor(() => {
      expect(screen.getByText('+15550000009')).toBeInTheDocument()
      expect(screen.getByText('Page 2 of 2')).toBeInTheDocument()
    })
    expect(asked).toContain('page=2&per_page=7')
  })

  it('shows cards on a phone', async () => {
    setViewport(false)
    fakeLogs()
    renderApp('/dashboard/call-logs')
    const cards = await screen.findByTestId('calls-cards')
    expect(within(cards).getAllByRole('listitem')).toHaveLength(7)
    expect(screen.queryByTestId('calls-table')).not.toBeInTheDocument()
  })

  it('opens the transcript with both speakers, and says when there is none', async () => {
    setViewport(true)
    fakeLogs()
    server.use(
      http.get(url('call-details/call-2'), () =>
        HttpResponse.json({
          success: true,
          data: details(
            2,
            [
              { user: 'assistant', text: 'Hello, this is Sarah.', created_at: '2026-11-16T10:00:01Z' },
              { user: 'user', text: 'Hi Sarah.', created_at: '2026-11-16T10:00:03Z' },
            ],
            {
              latencies: [
                { turn: 1, end_of_speech_ms: 300, stt_ms: 450, llm_ms: 10, tts_ms: 240, total_ms: 1000 },
                { turn: 2, end_of_speech_ms: 300, stt_ms: 650, llm_ms: 20, tts_ms: 260, total_ms: 1230 },
              ],
            },
          ),
        }),
      ),
      http.get(url('call-details/call-3'), () => HttpResponse.json({ success: true, data: details(3, []) })),
    )
    const user = userEvent.setup()
    renderApp('/dashboard/call-logs')
    const rows = within(await screen.findByTestId('calls-table')).getAllByRole('row').slice(1)
    await user.click(within(rows[1] as HTMLElement).getByRole('button', { name: 'View transcript' }))
    const dialog = await screen.findByRole('dialog', { name: 'Call Transcript' })
    const lines = within(within(dialog).getByTestId('transcript-lines')).getAllByRole('listitem')
    expect(lines[0]).toHaveTextContent('Agent')
    expect(lines[0]).toHaveTextContent('Hello, this is Sarah.')
    expect(lines[0]).toHaveClass('justify-end')
    expect(lines[1]).toHaveTextContent('User')
    expect(lines[1]).toHaveClass('justify-start')
    expect(within(dialog).getByTestId('call-outcome')).toHaveTextContent('The call has completed')
    expect(within(dialog).getByTestId('call-answered-by')).toHaveTextContent('A person')
    // Each reply's latency and the medians, under the transcript.
    const latency = within(within(dialog).getByTestId('turn-latencies'))
    expect(latency.getByRole('row', { name: /^Median/ })).toHaveTextContent('Median300 ms550 ms15 ms250 ms1.11 s')
    expect(latency.getByRole('row', { name: /^2 / })).toHaveTextContent('1.23 s')
    await user.click(within(dialog).getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())

    await user.click(within(rows[2] as HTMLElement).getByRole('button', { name: 'View transcript' }))
    expect(await screen.findByText('No transcripts available for this call')).toBeInTheDocument()
    expect(await screen.findByText('No replies were measured on this call.')).toBeInTheDocument()
  })

  it('shows how a call ended in its status and its page: a voicemail, its greeting, the analysis on request', async () => {
    setViewport(true)
    server.use(
      http.get(url('user/1/calls'), () =>
        HttpResponse.json({
          success: true,
          data: [record(1, { outcome: 'voicemail', answered_by: 'voicemail' }), record(2, { status: 'busy', outcome: 'busy', answered_by: null, corrected_duration: 0 })],
          pagination: { current_page: 1, last_page: 1, per_page: 7, total: 2 },
        }),
      ),
      http.get(url('call-details/call-1'), () =>
        HttpResponse.json({
          success: true,
          data: details(1, [{ user: 'user', text: 'Hi, you have reached Alex. Please leave a message.', created_at: '2026-11-16T10:00:01Z' }], {
            outcome: 'voicemail',
            answered_by: 'voicemail',
          }),
        }),
      ),
      http.post(url('analyze-call/call-1'), () =>
        HttpResponse.json({
          success: true,
          data: {
            summary: 'A voicemail greeting; the agent left a message.',
            outcome: 'voicemail',
            sentiment: 'neutral',
            key_facts: [],
            method: 'offline',
            disposition_tag: 'left_voicemail',
            fields: { callback_time: { value: null, line: null }, greeting_seconds: { value: 4, line: 1 } },
          },
        }),
      ),
    )
    const user = userEvent.setup()
    renderApp('/dashboard/call-logs')
    const rows = within(await screen.findByTestId('calls-table')).getAllByRole('row').slice(1)
    expect(rows[0]).toHaveTextContent('Voicemail')
    expect(rows[0]).not.toHaveTextContent('completed')
    expect(rows[1]).toHaveTextContent('Busy')

    await user.click(within(rows[0] as HTMLElement).getByRole('button', { name: 'View transcript' }))
    const dialog = await screen.findByRole('dialog', { name: 'Call Transcript' })
    expect(within(dialog).getByTestId('call-outcome')).toHaveTextContent('Voicemail reached')
    expect(within(dialog).getByTestId('call-answered-by')).toHaveTextContent('Voicemail')
    expect(within(within(dialog).getByTestId('transcript-lines')).getByRole('listitem')).toHaveTextContent('Voicemail ·')
    await user.click(within(dialog).getByRole('button', { name: 'Analyse call' }))
    expect(await within(dialog).findByTestId('call-analysis-summary')).toHaveTextContent('A voicemail greeting; the agent left a message.')
    // The call's own analysis settings: its disposition and the fields it asked for.
    expect(within(dialog).getByTestId('call-disposition')).toHaveTextContent('left_voicemail')
    expect(within(dialog).getByTestId('call-field-callback_time')).toHaveTextContent('Not said')
    expect(within(dialog).getByTestId('call-field-greeting_seconds')).toHaveTextContent('4')
    expect(calls.some((c) => c.method === 'POST' && c.path === 'analyze-call/call-1')).toBe(true)
  })

  it('plays one recording at a time inline', async () => {
    setViewport(true)
    fakeLogs()
    vi.spyOn(window.HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined)
    const pause = vi.spyOn(window.HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined)
    const user = userEvent.setup()
    renderApp('/dashboard/call-logs')
    const rows = within(await screen.findByTestId('calls-table')).getAllByRole('row').slice(1)
    await user.click(within(rows[1] as HTMLElement).getByRole('button', { name: 'Play recording' }))
    await user.click(within(rows[2] as HTMLElement).getByRole('button', { name: 'Play recording' }))
    const first = screen.getByTestId('player-call-2')
    const second = screen.getByTestId('player-call-3')
    expect(first).toHaveAttribute('src', '/api/v1/play-recording/call-2')
    expect(within(rows[1] as HTMLElement).getByRole('button', { name: 'Play recording' })).toBeDisabled()

    Object.defineProperty(first, 'paused', { configurable: true, value: false })
    fireEvent.play(second)
    expect(pause.mock.contexts).toContain(first)
    expect(pause.mock.contexts).not.toContain(second)
    expect(await screen.findByText('Playing recording')).toBeInTheDocument()
  })

  it('downloads a recording as recording_{id}.mp3 with the bearer token', async () => {
    setViewport(true)
    fakeLogs()
    let auth: string | null = null
    server.use(
      http.get(`${globalThis.location.origin}/api/v1/download-recording/call-2`, ({ request }) => {
        auth = request.headers.get('authorization')
        return new HttpResponse(new Uint8Array([0xff, 0xfb, 0x90, 0x00]), { headers: { 'Content-Type': 'audio/mpeg' } })
      }),
    )
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:recording', revokeObjectURL: () => undefined }))
    const clicked: string[] = []
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download)
    })
    const user = userEvent.setup()
    renderApp('/dashboard/call-logs')
    const rows = within(await screen.findByTestId('calls-table')).getAllByRole('row').slice(1)
    await user.click(within(rows[1] as HTMLElement).getByRole('button', { name: 'Download recording' }))
    expect(await screen.findByText('Recording downloaded successfully')).toBeInTheDocument()
    expect(clicked).toEqual(['recording_call-2.mp3'])
    expect(auth).toBe('Bearer 1|x')
  })

  it('reports a call with a reason', async () => {
    setViewport(true)
    fakeLogs()
    server.use(http.post(url('call/call-4/report'), () => HttpResponse.json({ success: true, message: 'Call reported successfully' }, { status: 201 })))
    const user = userEvent.setup()
    renderApp('/dashboard/call-logs')
    const rows = within(await screen.findByTestId('calls-table')).getAllByRole('row').slice(1)
    await user.click(within(rows[3] as HTMLElement).getByRole('button', { name: 'Report call' }))
    const dialog = await screen.findByRole('dialog', { name: 'Report Call' })
    const submit = within(dialog).getByRole('button', { name: 'Report' })
    // Enabled without a reason: pressing it says what is missing and sends nothing.
    expect(submit).toBeEnabled()
    await user.click(submit)
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please give a reason for reporting this call.')
    expect(within(dialog).getByLabelText('Reason for Reporting')).toHaveFocus()
    expect(within(dialog).getByLabelText('Reason for Reporting')).toHaveAttribute('aria-invalid', 'true')
    expect(calls.find((c) => c.path === 'call/call-4/report')).toBeUndefined()
    await user.type(within(dialog).getByLabelText('Reason for Reporting'), '  The agent was rude  ')
    await user.click(submit)
    expect(await screen.findByText('Call reported successfully')).toBeInTheDocument()
    await waitFor(() => expect(calls.find((c) => c.path === 'call/call-4/report')?.body).toEqual({ reason: 'The agent was rude' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  })

  it('says so when there are no calls', async () => {
    setViewport(true)
    renderApp('/dashboard/call-logs')
    expect(await screen.findByText('No calls found')).toBeInTheDocument()
  })

  it('shows the error when the calls cannot be loaded', async () => {
    setViewport(true)
    server.use(http.get(url('user/1/calls'), () => HttpResponse.json({ success: false, message: 'Database unavailable', errors: {} }, { status: 500 })))
    renderApp('/dashboard/call-logs')
    expect(await screen.findByRole('alert')).toHaveTextContent('Database unavailable')
    expect(await screen.findByText('Status : Database unavailable')).toBeInTheDocument()
  })
  it('filters by outcome and searches by number on the server, and each row opens the call’s page', async () => {
    setViewport(true)
    const asked = fakeLogs()
    server.use(http.get(url('call/call-2/page'), () => HttpResponse.json({ success: false, message: 'Call not found.' }, { status: 404 })))
    const user = userEvent.setup()
    const { router } = renderApp('/dashboard/call-logs')
    await screen.findByTestId('calls-table')
    await user.selectOptions(screen.getByRole('combobox', { name: 'Outcome' }), 'busy')
    await waitFor(() => expect(asked).toContain('page=1&per_page=7&outcome=busy'))
    await user.type(screen.getByRole('searchbox', { name: 'Search by phone number' }), '555 0002')
    await waitFor(() => expect(asked).toContain('page=1&per_page=7&outcome=busy&q=555+0002'))
    const rows = within(await screen.findByTestId('calls-table')).getAllByRole('row').slice(1)
    await user.click(within(rows[1] as HTMLElement).getByRole('link', { name: 'Open call page' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/calls/call-2'))
    expect(await screen.findByTestId('call-not-found')).toBeInTheDocument()
  })
})
