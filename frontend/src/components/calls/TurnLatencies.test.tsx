import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, render, screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { socket } from '@/testing/fakeSocket'
import { server, url } from '@/testing/msw'
import { TurnLatencies } from './TurnLatencies'
import { formatMs, median, mergeTurns } from './turnLatency'


const turn = (n: number, total: number | null, stt: number | null = 500) => ({
  turn: n,
  end_of_speech_ms: 300,
  stt_ms: stt,
  llm_ms: 12,
  tts_ms: 200,
  total_ms: total,
})

function show(callId: string, live = false) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  return render(
    <QueryClientProvider client={client}>
      <TurnLatencies callId={callId} live={live} />
    </QueryClientProvider>,
  )
}

const stored = (callId: string, data: unknown[]) => server.use(http.get(url(`call/${callId}/latency`), () => HttpResponse.json({ success: true, data })))
const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((c) => c.textContent)

describe('median and figures', () => {
  it('takes the middle of the measured values and skips the unmeasured', () => {
    expect(median([])).toBeNull()
    expect(median([null, undefined])).toBeNull()
    expect(median([900, null, 1300, 700])).toBe(900)
    expect(median([1000, 1300])).toBe(1150)
    expect(formatMs(null)).toBe('—')
    expect(formatMs(910)).toBe('910 ms')
    expect(formatMs(1420)).toBe('1.42 s')
  })

  it('keeps one row per turn, in order, the later report winning', () => {
    expect(mergeTurns([turn(2, 1000), turn(1, 900)], [turn(2, 1100)]).map((t) => [t.turn, t.total_ms])).toEqual([
      [1, 900],
      [2, 1100],
    ])
  })
})

describe('TurnLatencies', () => {
  it('shows the stored turns with each stage and the medians', async () => {
    stored('c1', [turn(1, 900), turn(2, 1300, null), turn(3, 700, 300)])
    show('c1')
    const median = await screen.findByRole('row', { name: /^Median/ })
    expect(cells(median)).toEqual(['300 ms', '400 ms', '12 ms', '200 ms', '900 ms'])
    const second = screen.getByRole('row', { name: /^2 / })
    expect(cells(second)).toEqual(['300 ms', '—', '12 ms', '200 ms', '1.30 s'])
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Reply', 'End of speech', 'STT', 'Brain', 'TTS', 'Heard'])
  })

  it('adds each live reply of this call as its event arrives, and ignores other calls', async () => {
    stored('c1', [turn(1, 900)])
    show('c1', true)
    expect(await screen.findByRole('row', { name: /^1 / })).toBeInTheDocument()
    act(() => socket.emit('turn-latency', { callId: 'other', ...turn(2, 5000) }))
    act(() => socket.emit('turn-latency', { callId: 'c1', ...turn(2, 1500) }))
    expect(cells(screen.getByRole('row', { name: /^2 / }))[4]).toBe('1.50 s')
    expect(screen.queryByText('5.00 s')).not.toBeInTheDocument()
    expect(cells(screen.getByRole('row', { name: /^Median/ }))[4]).toBe('1.20 s')
  })

  it('says a live call has no reply yet, and a past one none measured', async () => {
    stored('live', [])
    show('live', true)
    expect(await screen.findByText('Each reply’s latency appears here as the agent answers.')).toBeInTheDocument()
    act(() => socket.emit('turn-latency', { callId: 'live', ...turn(1, 800) }))
    expect(cells(screen.getByRole('row', { name: /^1 / }))[4]).toBe('800 ms')
  })

  it('says when the latency could not be loaded', async () => {
    server.use(http.get(url('call/gone/latency'), () => HttpResponse.json({ success: false, message: 'Call not found.' }, { status: 404 })))
    show('gone')
    expect(await screen.findByRole('alert')).toHaveTextContent('Call not found.')
  })

  it('opens no socket for a past call', async () => {
    socket.listeners.clear()
    stored('past', [turn(1, 900)])
    show('past')
    await screen.findByRole('row', { name: /^1 / })
    expect(socket.listeners.get('turn-latency')?.size ?? 0).toBe(0)
  })
})
