/** The client-side session: the spec's storage keys (api_token, user, userName, userId) and the
 * `auth=true` cookie that also counts as signed in. */

export type Role = 'admin' | 'user'

export interface SessionUser {
  id: number
  name: string
  email: string
  role: Role | string
}

const KEYS = { token: 'api_token', user: 'user', userName: 'userName', userId: 'userId' } as const

export function getToken(): string | null {
  return localStorage.getItem(KEYS.token)
}

export function getUser(): SessionUser | null {
  const raw = localStorage.getItem(KEYS.user)
  if (!raw) return null
  try {
    const parsed = JSON.parse(raw) as SessionUser
    return parsed && typeof parsed === 'object' ? parsed : null
  } catch {
    return null
  }
}

export function getUserName(): string {
  return localStorage.getItem(KEYS.userName) || 'User'
}

function hasAuthCookie(): boolean {
  return document.cookie.split(';').some((c) => c.trim() === 'auth=true')
}

export function isLoggedIn(): boolean {
  return Boolean(getToken()) || hasAuthCookie()
}

export function saveSession(token: string, user: SessionUser): void {
  localStorage.setItem(KEYS.token, token)
  localStorage.setItem(KEYS.user, JSON.stringify(user))
  localStorage.setItem(KEYS.userName, user.name)
  localStorage.setItem(KEYS.userId, String(user.id))
}

export function updateUserName(name: string): void {
  const user = getUser()
  if (user) localStorage.setItem(KEYS.user, JSON.stringify({ ...user, name }))
  localStorage.setItem(KEYS.userName, name)
}

export function clearSession(): void {
  for (const key of Object.values(KEYS)) localStorage.removeItem(key)
  document.cookie = 'auth=; Max-Age=0; path=/'
}

/** Where a signed-in person belongs: admins to /admin, users to /dashboard, anyone else to /. */
export function homeFor(role: string | undefined): string {
  if (role === 'admin') return '/admin'
  if (role === 'user') return '/dashboard'
  return '/'
}
