import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { toast } from 'sonner'
import { afterAll, afterEach, beforeAll, vi } from 'vitest'
import { socket } from './fakeSocket'
import { calls, server } from './msw'

// findBy*/waitFor wait up to 1 s by default. The test command runs Vitest at the lowest priority
// beside the two pytest passes on a 2-core box, where a lazily loaded page can take several
// seconds to first render (CI of stop 18 failed on this at 5 s). These are waits for a state, not
// speed checks (those live in benchmarks/), so give them room.
configure({ asyncUtilTimeout: 20000 })

// No test talks to a real socket.io server: pages that subscribe get the fake (a test file may
// mock socket.io-client its own way).
vi.mock('socket.io-client', () => import('./fakeSocket'))

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => {
  // Toasts live in sonner's module-level store: one left by a test must not be found by the next.
  toast.dismiss()
  socket.listeners.clear()
  server.resetHandlers()
  cleanup()
  calls.length = 0
  localStorage.clear()
  document.cookie.split(';').forEach((c) => {
    const name = c.split('=')[0]?.trim()
    if (name) document.cookie = `${name}=; Max-Age=0; path=/`
  })
})
afterAll(() => server.close())
