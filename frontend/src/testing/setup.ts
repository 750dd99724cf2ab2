import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { calls, server } from './msw'

// findBy*/waitFor wait up to 1 s by default; on a loaded 2-core CI box a lazily loaded page can
// take longer than that to first render. These are waits for a state, not speed checks (those
// live in benchmarks/), so give them room.
configure({ asyncUtilTimeout: 5000 })

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => {
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
