/** A stand-in for socket.io's client: pages subscribe, the test emits what the server would.
 * Every test gets it (testing/setup.ts mocks socket.io-client with it). */
type Listener = (payload: unknown) => void

const listeners = new Map<string, Set<Listener>>()
const on = (event: string, fn: Listener) => {
  if (!listeners.has(event)) listeners.set(event, new Set())
  listeners.get(event)?.add(fn)
}
const off = (event: string, fn: Listener) => listeners.get(event)?.delete(fn)
const fake = { on, off, disconnect: () => listeners.clear(), io: { on, off } }

export const socket = {
  listeners,
  emit: (event: string, payload: unknown) => listeners.get(event)?.forEach((fn) => fn(payload)),
}

export const io = () => fake
