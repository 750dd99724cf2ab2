import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'

export const ORIGIN = globalThis.location.origin
export const url = (path: string) => `${ORIGIN}/api/v1/${path}`

/** Records what reached the fake API, in order. */
export const calls: { method: string; path: string; headers: Headers; body: unknown }[] = []

export const defaultHandlers = [
  http.get(url('sanctum/csrf-cookie'), () => {
    document.cookie = 'XSRF-TOKEN=nonce123.mac456; path=/'
    return new HttpResponse(null, { status: 204 })
  }),
  // A server on a real carrier with an LLM brain: no notices (the notices' tests set the mode).
  http.get(url('system/mode'), () => HttpResponse.json({ success: true, data: { carrier: 'twilio', brain: 'llm', llm_model: 'gpt-4o-mini' } })),
  // A server without Google sign-in, reading national numbers as US ones.
  http.get(url('client-config'), () => HttpResponse.json({ sign_in: { google: false }, phone_region: 'US', test_call_max_minutes: 2 })),
  // A signed-in user with no calls yet (tests override these as they need).
  http.get(url('user/:id/stats'), () => HttpResponse.json({ success: true, data: { name: 'grace', balance: 0, totalCalls: 0, totalMinutesUsed: 0 } })),
  http.get(url('call/:id/latency'), () => HttpResponse.json({ success: true, data: [] })),
  // The signed-in user's profile, its time zone already stored (the signed-in layout stores the
  // browser's when it is null).
  http.get(url('user/profile'), () =>
    HttpResponse.json({
      success: true,
      data: { id: 1, name: 'grace', email: 'g@example.com', role: 'user', balance: 0, email_verified_at: '2026-11-01T00:00:00Z', created_at: '2026-11-01T00:00:00Z', google_linked: false, has_password: true, timezone: 'Europe/Berlin' },
    }),
  ),
  http.get(url('user/:id/live-calls'), () => HttpResponse.json({ success: true, data: [] })),
  http.get(url('languages'), () => HttpResponse.json({ success: true, default: 'en-US', languages: [{ code: 'en-US', name: 'English', voices: ['joe', 'amy'] }] })),
  http.get(url('flows'), () => HttpResponse.json({ success: true, data: [], pagination: { current_page: 1, last_page: 1, per_page: 100, total: 0 } })),
  http.get(url('agents'), () => HttpResponse.json({ success: true, data: [], pagination: { current_page: 1, last_page: 1, per_page: 100, total: 0 } })),
  // An agent with no lab scenarios (saving one reads its suite to offer a run).
  http.get(url('agents/:id/lab/scenarios'), () => HttpResponse.json({ success: true, data: [] })),
  http.get(url('user/:id/calls'), () =>
    HttpResponse.json({ success: true, data: [], pagination: { current_page: 1, last_page: 1, per_page: 7, total: 0 } }),
  ),
]

export const server = setupServer(...defaultHandlers)

server.events.on('request:start', ({ request }) => {
  const entry = { method: request.method, path: new URL(request.url).pathname.replace('/api/v1/', ''), headers: request.headers, body: null as unknown }
  calls.push(entry) // recorded synchronously, in request order; the body is filled in when read
  if (request.method !== 'GET') {
    request
      .clone()
      .json()
      .then((body) => (entry.body = body))
      .catch(() => undefined)
  }
})
