import { describe, expect, it } from 'vitest'
import { saveSession } from '@/lib/session'
import { guestOnly, requireAdmin, requireAuth } from './guards'

const args = (path: string) => ({ request: new Request(`http://localhost${path}`), params: {}, context: undefined }) as never

function redirectOf(fn: () => unknown): string | null {
  try {
    fn()
    return null
  } catch (thrown) {
    return (thrown as Response).headers.get('Location')
  }
}

describe('guards', () => {
  it('requireAuth sends guests to /login with the return URL', () => {
    expect(redirectOf(() => requireAuth(args('/dashboard/account?tab=1')))).toBe('/login?returnUrl=%2Fdashboard%2Faccount%3Ftab%3D1')
    saveSession('1|x', { id: 1, name: 'U', email: 'u@example.com', role: 'user' })
    expect(redirectOf(() => requireAuth(args('/dashboard')))).toBeNull()
  })

  it('an auth=true cookie also counts as signed in', () => {
    document.cookie = 'auth=true; path=/'
    expect(redirectOf(() => requireAuth(args('/dashboard')))).toBeNull()
    expect(redirectOf(() => guestOnly())).toBe('/')
  })

  it('requireAdmin lets only admins in and sends everyone else to /dashboard', () => {
    expect(redirectOf(() => requireAdmin())).toBe('/dashboard')
    saveSession('1|x', { id: 1, name: 'U', email: 'u@example.com', role: 'user' })
    expect(redirectOf(() => requireAdmin())).toBe('/dashboard')
    saveSession('2|x', { id: 2, name: 'A', email: 'a@example.com', role: 'admin' })
    expect(redirectOf(() => requireAdmin())).toBeNull()
  })

  it('guestOnly sends admins to /admin and users to /dashboard', () => {
    expect(redirectOf(() => guestOnly())).toBeNull()
    saveSession('2|x', { id: 2, name: 'A', email: 'a@example.com', role: 'admin' })
    expect(redirectOf(() => guestOnly())).toBe('/admin')
    saveSession('1|x', { id: 1, name: 'U', email: 'u@example.com', role: 'user' })
    expect(redirectOf(() => guestOnly())).toBe('/dashboard')
  })
})
