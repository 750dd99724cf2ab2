import { act, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { server, url } from '@/testing/msw'
import { renderInApp } from '@/testing/render'
import { PhoneMockup } from './PhoneMockup'

/** The mockup as the landing holds it: inside the app's providers and a router. */
const renderMockup = () => renderInApp(<PhoneMockup />)

/** A stand-in for socket.io's client: the mockup opens a visitor socket, the test plays the server. */
const sockets = vi.hoisted(() => {
  type Listener = (...args: unknown[]) => void
  interface Fake {
    auth: unknown
    listeners: Map<string, Listener[]>
    acks: ((state: unknown) => void)[]
    disconnected: boolean
    active: boolean
  }
  const opened: Fake[] = []
  const make = (options: { auth?: unknown }) => {
    const fake: Fake = { auth: options.auth, listeners: new Map(), acks: [], disconnected: false, active: true }
    opened.push(fake)
    const on = (event: string, fn: Listener) => {
      fake.listeners.set(event, [...(fake.listeners.get(event) ?? []), fn])
    }
    return {
      on,
      io: { on },
      get active() {
        return fake.active
      },
      timeout: () => ({
        emitWithAck: (event: string) => {
          if (event !== 'call-state') return Promise.reject(new Error(event))
          return new Promise((resolve) => fake.acks.push(resolve))
        },
      }),
      disconnect: () => {
        fake.disconnected = true
        fake.active = false
      },
    }
  }
  const emit = (fake: Fake, event: string, ...args: unknown[]) => fake.listeners.get(event)?.forEach((fn) => fn(...args))
  return { opened, make, emit }
})
vi.mock('socket.io-client', () => ({ io: (options: { auth?: unknown }) => sockets.make(options) }))

const placedCall = vi.fn()

beforeEach(() => {
  sockets.opened.length = 0
  placedCall.mockReset()
  server.use(
    http.post(url('test-call'), async ({ request }) => {
      placedCall(await request.json())
      return HttpResponse.json({ success: true, message: 'Test call initiated! You will receive a call shortly.', callId: 'c9', viewerToken: 'secret-9' })
    }),
  )
})
afterEach(() => vi.useRealTimers())

const event = (message: string, extra: Record<string, unknown> = {}) => ({ callId: 'c9', message, category: 'call', completed: false, ...extra })
/** A kept line's event, as calls/media_hooks.py publishes it. */
const kept = (seq: number, speaker: 'assistant' | 'user', text: string, at: string) =>
  event(`${speaker === 'assistant' ? 'Assistant' : 'User'}: ${text}`, { speaker, text, seq, key: `k${seq}`, at, final: true })
const caption = (key: string, speaker: 'assistant' | 'user', text: string, at: string) => ({ callId: 'c9', speaker, key, text, at, final: false })

async function placeCall() {
  const user = userEvent.setup()
  renderMockup()
  await user.type(screen.getByLabelText('Your phone number'), '+15551230001')
  await user.click(screen.getByRole('button', { name: 'Try a Free Test Call' }))
  await screen.findByText('Ringing...')
  await vi.waitFor(() => expect(sockets.opened).toHaveLength(1))
  const socket = sockets.opened[0]
  act(() => sockets.emit(socket, 'connect'))
  return { user, socket }
}

const phone = () => within(screen.getByTestId('phone-mockup'))
const bubbles = () => phone().queryAllByRole('listitem', { hidden: true }).map((li) => [li.dataset.speaker, li.textContent])

describe('the landing phone mockup', () => {
  it('opens a visitor socket for the call it placed, then shows ringing, connected, both sides and the end', async () => {
    const { user, socket } = await placeCall()
    expect(placedCall).toHaveBeenCalledWith({ phone_number: '+15551230001' })
    expect(socket.auth).toEqual({ visitor: 'secret-9', callId: 'c9' })
    expect(phone().queryByLabelText('Your phone number')).not.toBeInTheDocument()
    expect(phone().getByTestId('call-status')).toHaveFocus()
    expect(phone().getByText('Pick up: the agent speaks first.')).toBeInTheDocument()

    act(() => sockets.emit(socket, 'webhook-event', event('Ringing', { category: 'status' })))
    expect(phone().getByRole('status')).toHaveTextContent('Ringing...')
    act(() => sockets.emit(socket, 'webhook-event', event('Call connected')))
    expect(phone().getByTestId('call-status')).toHaveTextContent(/^Connected 00:0\d$/)
    expect(phone().getByText('Listening...')).toBeInTheDocument()

    // The agent's words as they are heard, then the kept line in their place.
    act(() => sockets.emit(socket, 'transcript-live', caption('a1', 'assistant', 'Hi, this', '2026-11-23T10:00:01Z')))
    expect(bubbles()).toEqual([['assistant', 'Agent: Hi, this']])
    expect(phone().getAllByRole('listitem', { hidden: true })[0]).toHaveAttribute('aria-hidden', 'true') // announced once kept
    act(() => sockets.emit(socket, 'webhook-event', { ...kept(1, 'assistant', 'Hi, this is Callwright.', '2026-11-23T10:00:01Z'), key: 'a1' }))
    act(() => sockets.emit(socket, 'webhook-event', kept(2, 'user', 'Who is calling?', '2026-11-23T10:00:04Z')))
    // Another call's events never show, even if they arrived.
    act(() => sockets.emit(socket, 'webhook-event', { ...kept(3, 'assistant', 'Not yours.', '2026-11-23T10:00:05Z'), callId: 'other' }))
    act(() => sockets.emit(socket, 'transcript-live', { ...caption('x', 'assistant', 'Not yours either', '2026-11-23T10:00:06Z'), callId: 'other' }))
    const log = phone().getByRole('log', { name: 'Call transcript' })
    expect(log).toHaveAttribute('aria-live', 'polite')
    expect(bubbles()).toEqual([
      ['assistant', 'Agent: Hi, this is Callwright.'],
      ['user', 'You: Who is calling?'],
    ])
    expect(log.querySelector('[data-in-flight]')).toBeNull()

    act(() => sockets.emit(socket, 'webhook-event', event('Call duration & price: 23s')))
    act(() => sockets.emit(socket, 'webhook-event', event('Closing call stream', { completed: true, outcome: 'callee-hung-up', outcomeText: 'The callee hung up' })))
    expect(phone().getByRole('status')).toHaveTextContent('Call ended')
    expect(phone().getByTestId('call-outcome')).toHaveTextContent('The callee hung up · Duration 00:23')
    expect(phone().queryByRole('timer')).not.toBeInTheDocument()
    expect(socket.disconnected).toBe(true)
    expect(bubbles()).toHaveLength(2) // the transcript stays to read

    // After the call: sign up to place one's own.
    expect(phone().getByRole('link', { name: 'Sign up to place your own calls' })).toHaveAttribute('href', '/register')
    await user.click(phone().getByRole('button', { name: 'Start another test call' }))
    expect(phone().getByLabelText('Your phone number')).toHaveFocus()
    expect(phone().getByLabelText('Your phone number')).toHaveValue('')
  })

  it('catches up from the call state when the socket joins late, without repeating lines', async () => {
    const { socket } = await placeCall()
    act(() => sockets.emit(socket, 'webhook-event', kept(2, 'user', 'Yes, speaking.', '2026-11-23T10:00:04Z')))
    await act(async () =>
      socket.acks[0]({
        callId: 'c9',
        status: 'in-progress',
        answered: true,
        connectedSeconds: 12,
        finalized: false,
        lines: [
          { seq: 1, user: 'assistant', text: 'Hello, this is Sarah.', created_at: '2026-11-23T10:00:01Z' },
          { seq: 2, user: 'user', text: 'Yes, speaking.', created_at: '2026-11-23T10:00:04Z' },
        ],
      }),
    )
    expect(phone().getByTestId('call-status')).toHaveTextContent('Connected 00:12')
    expect(bubbles()).toEqual([
      ['assistant', 'Agent: Hello, this is Sarah.'],
      ['user', 'You: Yes, speaking.'],
    ])
  })

  it("promises the length the server gives a test call", async () => {
    renderMockup()
    expect(await screen.findByText('Free, up to 2 minutes, no sign-up.')).toBeInTheDocument()
  })

  it('promises another length when the server is set to another', async () => {
    server.use(http.get(url('client-config'), () => HttpResponse.json({ sign_in: { google: false }, phone_region: 'US', test_call_max_minutes: 5 })))
    renderMockup()
    expect(await screen.findByText('Free, up to 5 minutes, no sign-up.')).toBeInTheDocument()
  })

  it('a refused test call (429) says when the visitor may try again', async () => {
    server.use(
      http.post(url('test-call'), () =>
        HttpResponse.json(
          { success: false, message: 'Too many test call requests. Please try again later.', errors: {} },
          { status: 429, headers: { 'Retry-After': '2520' } },
        ),
      ),
    )
    const user = userEvent.setup()
    renderMockup()
    await user.type(screen.getByLabelText('Your phone number'), '+15551230001')
    await user.click(screen.getByRole('button', { name: 'Try a Free Test Call' }))
    expect(await screen.findByTestId('test-call-retry')).toHaveTextContent(/^Try again in 42 minutes, at \d{1,2}:\d\d( [AP]M)?( tomorrow)?\.$/)
    expect(screen.getByText('Too many test call requests. Please try again later.')).toBeInTheDocument() // the spec's toast
  })

  it('says how a call ended without an answer', async () => {
    const { socket } = await placeCall()
    act(() => sockets.emit(socket, 'webhook-event', event('Line busy', { category: 'status' })))
    act(() => sockets.emit(socket, 'webhook-event', event('Call duration & price: 0s')))
    act(() => sockets.emit(socket, 'webhook-event', event('Closing call stream', { completed: true, outcome: 'busy' })))
    expect(phone().getByRole('status')).toHaveTextContent('Call ended')
    expect(phone().getByTestId('call-outcome')).toHaveTextContent('The line was busy · Duration 00:00')
    expect(phone().queryAllByRole('listitem')).toHaveLength(0)
  })

  it('says so when the progress cannot be followed, and the bars move only without reduced motion', async () => {
    const { socket } = await placeCall()
    act(() => sockets.emit(socket, 'webhook-event', event('Call connected')))
    const bars = screen.getByTestId('phone-mockup').querySelectorAll('[aria-hidden] > span')
    expect(bars).toHaveLength(9)
    expect([...bars].every((bar) => bar.className.includes('motion-safe:animate-pulse') && !/(^| )animate-pulse/.test(bar.className))).toBe(true)
    socket.active = false // refused: socket.io gives up
    act(() => sockets.emit(socket, 'connect_error', new Error('Unauthenticated.')))
    expect(phone().getByRole('alert')).toHaveTextContent("Your phone is still ringing, but the call's progress cannot be shown here.")
  })
})
