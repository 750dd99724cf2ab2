/** The realtime connection (spec section 7): socket.io at /socket.io with credentials, 5
 * reconnection attempts 1 s apart, a 20 s timeout; the bearer token authenticates the handshake.
 * One shared socket per page; components subscribe to webhook-event and balance-update, and
 * catch up on what the socket missed when it reconnects (`onReconnect`).
 *
 * A visitor without an account watches the landing page's test call with `watchTestCall`, on a
 * socket of its own that presents the call's visitor secret. The landing page imports this module
 * lazily, when the call starts, so socket.io stays out of its first load.
 *
 * socket.io's client (about 13 KB gzip) is itself loaded when the first subscriber mounts, not
 * with the page that subscribes: nothing on a first paint needs it, and Send Call's first load
 * stays under its budget (issue 26).
 *
 * The events' payloads are generated from the server's models (`realtime/events.py`, published in
 * the OpenAPI document as `LiveEvents`): `npm run gen:api`, never written here by hand. */
import { useEffect, useRef } from 'react'
import type { Socket } from 'socket.io-client'
import type { components } from './api-schema'
import { getToken } from './session'

/** What each event the server emits carries, by the event's name. */
export type LiveEvents = components['schemas']['LiveEvents']
export type LiveEventName = keyof LiveEvents
/** One of a call's events: a kept transcript line carries the line itself, "Closing call stream"
 * how the call ended (lib/outcomes), who answered, in words. */
export type WebhookEvent = LiveEvents['webhook-event']
/** A line being spoken right now: its words so far (the agent's as they are heard, the
 * callee's as soon as transcribed). Its kept form follows as a webhook-event with the same key. */
export type CaptionEvent = LiveEvents['transcript-live']
export type BalanceUpdate = LiveEvents['balance-update']
/** A test call so far, for a socket that joined after it started (the answer to `call-state`). */
export type CallState = components['schemas']['CallState']

/** The socket, typed by the server's events (an unknown event name or payload fails to compile). */
type Listeners = { [E in LiveEventName]: (data: LiveEvents[E]) => void }
type LiveSocket = Socket<Listeners, { 'call-state': (answer: (state: CallState | null) => void) => void }>

interface Handlers {
  onWebhookEvent?: (event: WebhookEvent) => void
  onCaption?: (event: CaptionEvent) => void
  onBalanceUpdate?: (event: BalanceUpdate) => void
  onError?: (kind: 'webhook' | 'balance') => void
  /** The socket is back after a break (its API process restarted, the network dropped): what
   * was emitted meanwhile never came, so a page that follows something fetches it again. */
  onReconnect?: () => void
}

const OPTIONS = {
  path: '/socket.io',
  withCredentials: true,
  reconnectionAttempts: 5,
  reconnectionDelay: 1000,
  timeout: 20000,
} as const

const loadClient = () => import('socket.io-client')

let shared: Promise<LiveSocket> | null = null
let users = 0

function connect(): Promise<LiveSocket> {
  if (!shared) {
    const opening = loadClient().then(({ io }): LiveSocket => io({ ...OPTIONS, auth: (cb) => cb({ token: getToken() ?? '' }) }))
    // A client that could not be loaded is tried again by the next subscriber.
    opening.catch(() => {
      if (shared === opening) shared = null
    })
    shared = opening
  }
  users += 1
  return shared
}

function release(): void {
  users -= 1
  if (users <= 0 && shared) {
    void shared.then((socket) => socket.disconnect()).catch(() => undefined)
    shared = null
    users = 0
  }
}

/** Use the shared socket for as long as the caller holds it: `attach` runs once it is open
 * (unless released before) and returns its detach. The returned function releases it. A client
 * that cannot be loaded (the network dropped) is reported through `failed`. */
function hold(attach: (socket: LiveSocket) => () => void, failed?: () => void): () => void {
  let held = true
  let detach: (() => void) | null = null
  connect().then(
    (socket) => {
      if (held) detach = attach(socket)
    },
    () => {
      if (held) failed?.()
    },
  )
  return () => {
    held = false
    detach?.()
    release()
  }
}

/** Subscribe for the component's lifetime; handlers may change between renders. */
export function useRealtime(handlers: Handlers): void {
  const ref = useRef(handlers)
  useEffect(() => {
    ref.current = handlers
  })
  useEffect(() => {
    const attach = (socket: LiveSocket) => {
      const onWebhook = (event: WebhookEvent) => {
        try {
          ref.current.onWebhookEvent?.(event)
        } catch {
          ref.current.onError?.('webhook')
        }
      }
      const onBalance = (event: BalanceUpdate) => {
        try {
          ref.current.onBalanceUpdate?.(event)
        } catch {
          ref.current.onError?.('balance')
        }
      }
      const onCaption = (event: CaptionEvent) => {
        try {
          ref.current.onCaption?.(event)
        } catch {
          ref.current.onError?.('webhook')
        }
      }
      const onConnectError = () => ref.current.onError?.('webhook')
      const onReconnect = () => ref.current.onReconnect?.()
      socket.on('webhook-event', onWebhook)
      socket.on('transcript-live', onCaption)
      socket.on('balance-update', onBalance)
      socket.io.on('reconnect_failed', onConnectError)
      socket.io.on('reconnect', onReconnect)
      return () => {
        socket.off('webhook-event', onWebhook)
        socket.off('transcript-live', onCaption)
        socket.off('balance-update', onBalance)
        socket.io.off('reconnect_failed', onConnectError)
        socket.io.off('reconnect', onReconnect)
      }
    }
    return hold(attach, () => ref.current.onError?.('webhook'))
  }, [])
}

interface VisitorHandlers {
  onWebhookEvent: (event: WebhookEvent) => void
  onCaption: (event: CaptionEvent) => void
  onState: (state: CallState) => void
  /** The socket could not be opened (refused, or the server unreachable after the retries). */
  onError: () => void
}

/** Watch one public test call with the visitor secret its placing returned: this call's
 * webhook-events and captions only, and its state so far on every (re)connection. Returns the
 * unsubscribe. */
export function watchTestCall(callId: string, secret: string, handlers: VisitorHandlers): () => void {
  let closed = false
  let opened: LiveSocket | null = null
  const follow = (socket: LiveSocket) => {
    socket.on('webhook-event', (event) => {
      if (event.callId === callId) handlers.onWebhookEvent(event)
    })
    socket.on('transcript-live', (event) => {
      if (event.callId === callId) handlers.onCaption(event)
    })
    socket.on('connect', () => {
      socket
        .timeout(OPTIONS.timeout)
        .emitWithAck('call-state')
        .then((state) => {
          if (state) handlers.onState(state)
        })
        .catch(() => undefined) // the live events still come
    })
    // A refused handshake is not retried by socket.io; an unreachable server is, up to the limit.
    socket.on('connect_error', () => {
      if (!socket.active) handlers.onError()
    })
    socket.io.on('reconnect_failed', handlers.onError)
  }
  loadClient().then(
    ({ io }) => {
      if (closed) return
      const socket: LiveSocket = io({ ...OPTIONS, auth: { visitor: secret, callId } })
      opened = socket
      follow(socket)
    },
    () => {
      if (!closed) handlers.onError()
    },
  )
  return () => {
    closed = true
    opened?.disconnect()
  }
}

/** Listen to one socket event (`turn-latency`, ...) for the component's lifetime, on the shared
 * socket (none is opened while `event` is null); the handler may change between renders. */
export function useSocketEvent<E extends LiveEventName>(event: E | null, handler: (data: LiveEvents[E]) => void): void {
  const ref = useRef(handler)
  useEffect(() => {
    ref.current = handler
  })
  useEffect(() => {
    if (event === null) return
    const listener = (data: LiveEvents[E]) => ref.current(data)
    // The signature ties the event to its payload; socket.io's types cannot follow a generic name.
    const name: string = event
    return hold((typed) => {
      const socket = typed as Socket
      socket.on(name, listener)
      return () => socket.off(name, listener)
    })
  }, [event])
}
