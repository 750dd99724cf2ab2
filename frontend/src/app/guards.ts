/** Route guards as loaders (they run before the screen renders). */
import { redirect, type LoaderFunctionArgs } from 'react-router'
import { getUser, homeFor, isLoggedIn } from '@/lib/session'

/** Signed-in only; others go to /login with the requested URL as returnUrl. */
export function requireAuth({ request }: LoaderFunctionArgs) {
  if (!isLoggedIn()) {
    const url = new URL(request.url)
    throw redirect(`/login?returnUrl=${encodeURIComponent(url.pathname + url.search)}`)
  }
  return null
}

/** Admins only; everyone else is sent to /dashboard (which sends guests on to /login). */
export function requireAdmin() {
  if (!isLoggedIn() || getUser()?.role !== 'admin') throw redirect('/dashboard')
  return null
}

/** Guests only: a signed-in admin goes to /admin, a user to /dashboard, anyone else to /. */
export function guestOnly() {
  if (isLoggedIn()) throw redirect(homeFor(getUser()?.role))
  return null
}
