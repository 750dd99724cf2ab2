import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { calls, server, url } from '@/testing/msw'
import { renderApp } from '@/testing/render'

const PROFILE = { success: true, data: { id: 1, name: 'Ada', email: 'ada@example.com', role: 'user', balance: 3, email_verified_at: null, created_at: '2026-01-01T00:00:00Z', has_password: true, google_linked: false } }

function loginAnswers(role: 'admin' | 'user') {
  server.use(
    http.post(url('login'), () =>
      HttpResponse.json({ success: true, message: 'Login successful', token: '1|abc', user: { id: 1, name: 'Ada', email: 'ada@example.com', role } }),
    ),
    http.get(url('user/profile'), () => HttpResponse.json(PROFILE)),
    http.get(url('admin/mail-outbox'), () => HttpResponse.json({ success: true, data: [], pagination: { current_page: 1, last_page: 1, per_page: 10, total: 0 } })),
  )
}

async function fill(email: string, password: string) {
  const user = userEvent.setup()
  await user.type(screen.getByLabelText('Email'), email)
  await user.type(screen.getByLabelText('Password'), password)
  return user
}

describe('Login page', () => {
  it('shows errors only after a field was touched, and Login stays enabled to show them', async () => {
    renderApp('/login')
    const button = await screen.findByRole('button', { name: 'Login' })
    expect(button).toBeEnabled()
    expect(screen.queryByText('Email is required')).not.toBeInTheDocument()
    const user = userEvent.setup()
    await user.click(screen.getByLabelText('Email'))
    await user.click(screen.getByLabelText('Password'))
    expect(await screen.findByText('Email is required')).toBeInTheDocument()
    await user.type(screen.getByLabelText('Email'), 'bad@')
    await user.type(screen.getByLabelText('Password'), '12345')
    await user.click(screen.getByLabelText('Email'))
    expect(await screen.findByText('Invalid email format')).toBeInTheDocument()
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument()
    expect(button).toBeEnabled()
  })

  it('tabs email, password, Login (the skip link first, "Forgot password?" after)', async () => {
    renderApp('/login')
    await screen.findByRole('button', { name: 'Login' })
    const user = userEvent.setup()
    await user.tab()
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveFocus()
    // The brand panel's home link comes next on wide screens; then the form in this order.
    const order: HTMLElement[] = []
    for (let i = 0; i < 8 && !order.includes(screen.getByRole('button', { name: 'Login' })); i++) {
      await user.tab()
      order.push(document.activeElement as HTMLElement)
    }
    const form = order.filter((el) => el.closest('form'))
    expect(form).toEqual([screen.getByLabelText('Email'), screen.getByLabelText('Password'), screen.getByRole('button', { name: 'Login' })])
    await user.tab()
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveFocus()
  })

  it('Enter in the password field signs in', async () => {
    loginAnswers('user')
    const { router } = renderApp('/login')
    await screen.findByRole('button', { name: 'Login' })
    await fill('ada@example.com', 'secret123{Enter}')
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
    expect(calls.find((c) => c.path === 'login')!.body).toEqual({ email: 'ada@example.com', password: 'secret123' })
  })

  it('Enter on an empty form shows every error and focuses the first field, sending nothing', async () => {
    renderApp('/login')
    await screen.findByRole('button', { name: 'Login' })
    const user = userEvent.setup()
    await user.click(screen.getByLabelText('Email'))
    await user.keyboard('{Enter}')
    expect(await screen.findByText('Email is required')).toBeInTheDocument()
    expect(screen.getByText('Password is required')).toBeInTheDocument()
    expect(screen.getByText('Please fill in all required fields correctly')).toBeInTheDocument()
    expect(screen.getByLabelText('Email')).toHaveFocus()
    expect(calls.find((c) => c.path === 'login')).toBeUndefined()
  })

  it('lower-cases the e-mail, stores the session and sends a user to the return URL', async () => {
    loginAnswers('user')
    const { router } = renderApp('/login?returnUrl=%2Fdashboard%2Faccount')
    await screen.findByRole('button', { name: 'Login' })
    const user = await fill('Ada@Example.COM', 'secret123')
    await user.click(screen.getByRole('button', { name: 'Login' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/account'))
    expect(calls.find((c) => c.path === 'login')!.body).toEqual({ email: 'ada@example.com', password: 'secret123' })
    expect(localStorage.getItem('api_token')).toBe('1|abc')
    expect(localStorage.getItem('userName')).toBe('Ada')
    expect(localStorage.getItem('userId')).toBe('1')
    expect(await screen.findByText('Login successful')).toBeInTheDocument()
  })

  it('sends an admin to /admin whatever the return URL', async () => {
    loginAnswers('admin')
    const { router } = renderApp('/login?returnUrl=%2Fdashboard')
    await screen.findByRole('button', { name: 'Login' })
    const user = await fill('ada@example.com', 'secret123')
    await user.click(screen.getByRole('button', { name: 'Login' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'))
  })

  it('an off-site return URL is ignored', async () => {
    loginAnswers('user')
    const { router } = renderApp('/login?returnUrl=%2F%2Fevil.example')
    await screen.findByRole('button', { name: 'Login' })
    const user = await fill('ada@example.com', 'secret123')
    await user.click(screen.getByRole('button', { name: 'Login' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
  })

  it('"Email not verified" reveals the resend link, which hides after a successful resend', async () => {
    server.use(
      http.post(url('login'), () => HttpResponse.json({ success: false, message: 'Email not verified. Please check your inbox.', errors: {} }, { status: 403 })),
      http.post(url('resend-verification'), () => HttpResponse.json({ success: true, message: 'Verification email resent. Please check your inbox.' })),
    )
    renderApp('/login')
    await screen.findByRole('button', { name: 'Login' })
    expect(screen.queryByRole('button', { name: 'Resend verification email' })).not.toBeInTheDocument()
    const user = await fill('New@Example.com', 'secret123')
    await user.click(screen.getByRole('button', { name: 'Login' }))
    const resend = await screen.findByRole('button', { name: 'Resend verification email' })
    await user.click(resend)
    expect(await screen.findByText('Verification email resent. Please check your inbox.')).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Resend verification email' })).not.toBeInTheDocument())
    expect(calls.find((c) => c.path === 'resend-verification')!.body).toEqual({ email: 'new@example.com' })
  })

  it('shows the server message on failure, else the fallback', async () => {
    server.use(http.post(url('login'), () => new HttpResponse(null, { status: 500 })))
    renderApp('/login')
    await screen.findByRole('button', { name: 'Login' })
    const user = await fill('ada@example.com', 'secret123')
    await user.click(screen.getByRole('button', { name: 'Login' }))
    expect(await screen.findByText('Login failed. Please try again.')).toBeInTheDocument()
  })

  it.each([
    ['verified=true', 'Email verified successfully'],
    ['verified=false&error=user_not_found', 'User not found'],
    ['verified=false&error=invalid_link', 'Invalid verification link'],
    ['verified=false&error=invalid_signature', 'Invalid or expired verification link'],
    ['verified=false&error=already_verified', 'Email already verified'],
    ['verified=false&error=verification_failed', 'Failed to verify email'],
    ['verified=false&error=whatever', 'Unknown error during email verification'],
    ['error=google_login_failed', 'Google login failed. Please try again.'],
  ])('arrival with ?%s says "%s"', async (query, message) => {
    renderApp(`/login?${query}`)
    expect(await screen.findByText(message)).toBeInTheDocument()
  })

  it('a Google result in the query is stored and signs in', async () => {
    server.use(http.get(url('user/profile'), () => HttpResponse.json(PROFILE)))
    const user = encodeURIComponent(JSON.stringify({ id: 5, name: 'Lin', email: 'lin@example.com', role: 'user' }))
    const { router } = renderApp(`/login?token=5%7Cgoogle&user=${user}`)
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
    expect(localStorage.getItem('api_token')).toBe('5|google')
    expect(localStorage.getItem('userName')).toBe('Lin')
    expect(await screen.findByText('Google login successful')).toBeInTheDocument()
  })

  it('Google sign-in failing to start: shows the server message', async () => {
    server.use(
      http.get(url('client-config'), () => HttpResponse.json({ sign_in: { google: true }, phone_region: 'US' })),
      http.get(url('auth/google'), () => HttpResponse.json({ success: false, message: 'Google sign-in is unavailable right now. Please try again later.', errors: {} }, { status: 502 })),
    )
    renderApp('/login')
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Continue with Google' }))
    expect(await screen.findByText('Google sign-in is unavailable right now. Please try again later.')).toBeInTheDocument()
  })

  it("puts the server's refusal beside the field it names, as well as in the toast", async () => {
    const refused = 'These credentials do not match our records.'
    server.use(http.post(url('login'), () => HttpResponse.json({ success: false, message: refused, errors: { email: [refused] } }, { status: 422 })))
    renderApp('/login')
    await screen.findByRole('button', { name: 'Login' })
    const user = await fill('ada@example.com', 'wrong password')
    await user.click(screen.getByRole('button', { name: 'Login' }))
    await waitFor(() => expect(screen.getAllByText(refused)).toHaveLength(2))
    const email = screen.getByLabelText('Email')
    expect(email).toHaveAttribute('aria-invalid', 'true')
    expect(email).toHaveAccessibleDescription(refused)
    // Typing a new address clears it.
    await user.type(email, 'x')
    await waitFor(() => expect(email).not.toHaveAttribute('aria-invalid'))
  })
})
