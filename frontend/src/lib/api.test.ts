import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { calls, server, url } from '@/testing/msw'
import { api, ApiError, unwrap } from './api'
import { saveSession } from './session'

afterEach(() => vi.restoreAllMocks())

describe('api client', () => {
  it('fetches the CSRF cookie before a mutation and echoes it; sends the bearer token', async () => {
    saveSession('7|secret', { id: 7, name: 'Ada', email: 'a@example.com', role: 'user' })
    server.use(http.put(url('user/profile'), () => HttpResponse.json({ success: true, data: { name: 'X' } })))
    await api.PUT('/api/v1/user/profile', { body: { name: 'X' } })
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET sanctum/csrf-cookie', 'PUT user/profile'])
    expect(calls[1]!.headers.get('X-XSRF-TOKEN')).toBe('nonce123.mac456')
    expect(calls[1]!.headers.get('Authorization')).toBe('Bearer 7|secret')
  })

  it('does not pre-flight reads', async () => {
    server.use(http.get(url('user/profile'), () => HttpResponse.json({ success: true, data: {} })))
    await api.GET('/api/v1/user/profile')
    expect(calls.map((c) => c.path)).toEqual(['user/profile'])
  })

  it('a 401 clears the client session and goes to /login with the return URL', async () => {
    saveSession('7|secret', { id: 7, name: 'Ada', email: 'a@example.com', role: 'user' })
    const assign = vi.fn()
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, pathname: '/dashboard/account', search: '?x=1', assign })
    server.use(http.get(url('user/profile'), () => HttpResponse.json({ success: false, message: 'Unauthenticated.' }, { status: 401 })))
    await api.GET('/api/v1/user/profile')
    expect(localStorage.getItem('api_token')).toBeNull()
    expect(localStorage.getItem('userName')).toBeNull()
    expect(assign).toHaveBeenCalledWith('/login?returnUrl=%2Fdashboard%2Faccount%3Fx%3D1')
  })

  it('unwrap uses the server message, else the fallback, and keeps field errors', async () => {
    server.use(
      http.post(url('register'), () =>
        HttpResponse.json({ success: false, message: 'Taken', errors: { email: ['Taken'] } }, { status: 422 }),
      ),
      http.post(url('forgot-password'), () => new HttpResponse('boom', { status: 500 })),
    )
    const withMessage = await unwrap(api.POST('/api/v1/register', { body: { name: 'a', email: 'a@b.co', password: 'x' } }), 'Registration failed').catch((e) => e)
    expect(withMessage).toBeInstanceOf(ApiError)
    expect(withMessage.message).toBe('Taken')
    expect(withMessage.field('email')).toBe('Taken')
    const fallback = await unwrap(api.POST('/api/v1/forgot-password', { body: { email: 'a@b.co' } }), 'Failed to send password reset link').catch((e) => e)
    expect(fallback.message).toBe('Failed to send password reset link')
    expect(fallback.status).toBe(500)
  })
})
