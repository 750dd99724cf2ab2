/** The typed API client. Every request sends credentials and the stored bearer token; every
 * mutation first fetches sanctum/csrf-cookie and echoes XSRF-TOKEN in X-XSRF-TOKEN; a 401 clears
 * the client session and goes to /login?returnUrl=... */
import createClient, { type Middleware } from 'openapi-fetch'
import type { paths } from './api-schema'
import { clearSession, getToken } from './session'

export const API_BASE = '/api/v1'
/** Same origin as the page (absolute, so it also works under Node's fetch in tests). */
const ORIGIN = globalThis.location?.origin ?? ''
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
/** Calls whose 401 means "wrong credentials here", not "your session ended". */
const NO_REDIRECT_ON_401 = ['/login', '/logout']

export class ApiError extends Error {
  status: number
  errors: Record<string, string[]>
  /** The whole error body, for the fields a refusal adds beside `message` and `errors` (a
   * calling-hours refusal's `next_open_at`). */
  body: Record<string, unknown>
  /** Seconds until the server takes the request again (its Retry-After on a 429 or 503). */
  retryAfter: number | null

  constructor(
    message: string,
    status: number,
    errors: Record<string, string[]> = {},
    body: Record<string, unknown> = {},
    retryAfter: number | null = null,
  ) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.errors = errors
    this.body = body
    this.retryAfter = retryAfter
  }

  /** The first message for a field, if the server gave one. */
  field(name: string): string | undefined {
    return this.errors[name]?.[0]
  }
}

export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key === name) return decodeURIComponent(rest.join('='))
  }
  return null
}

/** Retry-After in seconds: a number of seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterSeconds(value: string | null, now: number = Date.now()): number | null {
  if (!value) return null
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed)
  const at = Date.parse(trimmed)
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000))
}

export async function ensureCsrfCookie(): Promise<string | null> {
  await fetch(`${ORIGIN}${API_BASE}/sanctum/csrf-cookie`, { credentials: 'include' })
  return readCookie('XSRF-TOKEN')
}

let redirecting = false

export function redirectToLogin(): void {
  if (redirecting) return
  redirecting = true
  clearSession()
  const here = window.location.pathname + window.location.search
  const target = here.startsWith('/login') ? '/login' : `/login?returnUrl=${encodeURIComponent(here)}`
  window.location.assign(target)
}

const authMiddleware: Middleware = {
  async onRequest({ request }) {
    const token = getToken()
    if (token) request.headers.set('Authorization', `Bearer ${token}`)
    request.headers.set('Accept', 'application/json')
    if (MUTATING.has(request.method)) {
      const xsrf = await ensureCsrfCookie()
      if (xsrf) request.headers.set('X-XSRF-TOKEN', xsrf)
    }
    return request
  },
  async onResponse({ request, response }) {
    const path = new URL(request.url).pathname.replace(API_BASE, '')
    if (response.status === 401 && !NO_REDIRECT_ON_401.includes(path)) redirectToLogin()
    return response
  },
}

export const api = createClient<paths>({
  baseUrl: ORIGIN,
  credentials: 'include',
  // Looked up per call, so instrumentation installed later (tests, monitoring) is used.
  fetch: (request: Request) => globalThis.fetch(request),
})
api.use(authMiddleware)

interface ErrorBody {
  message?: string
  errors?: Record<string, string[]>
}

/** Turn an openapi-fetch result into data, or throw ApiError with the server's message (or the
 * spec's fallback when the server gave none). */
export async function unwrap<T>(
  promise: Promise<{ data?: T; error?: unknown; response: Response }>,
  fallback: string,
): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response }
  try {
    result = await promise
  } catch {
    throw new ApiError(fallback, 0)
  }
  if (result.response.ok && result.data !== undefined) return result.data
  if (result.response.ok && result.response.status === 204) return undefined as T
  const body = (result.error !== null && typeof result.error === 'object' ? result.error : {}) as ErrorBody & Record<string, unknown>
  throw new ApiError(body.message || fallback, result.response.status, body.errors ?? {}, body, retryAfterSeconds(result.response.headers.get('Retry-After')))
}

export function messageOf(error: unknown, fallback: string): string {
  if (error instanceof ApiError || error instanceof Error) return error.message || fallback
  return fallback
}

/** openapi-fetch options that send `file` as the multipart form field `file` (the upload
 * routes' body). */
export function fileBody(file: File) {
  return {
    body: { file: file as unknown as string },
    bodySerializer: () => {
      const form = new FormData()
      form.append('file', file)
      return form
    },
  }
}
