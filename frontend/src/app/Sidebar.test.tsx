import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { saveSession } from '@/lib/session'
import { server, url } from '@/testing/msw'
import { renderApp } from '@/testing/render'

const profile = { success: true, data: { id: 1, name: 'grace', email: 'g@example.com', role: 'user', balance: 0.5, email_verified_at: null, created_at: '2026-01-01T00:00:00Z', has_password: true, google_linked: false } }

describe('Sidebar', () => {
  it('shows the avatar initial, the name, "Free plan" and the user items', async () => {
    saveSession('1|x', { id: 1, name: 'grace', email: 'g@example.com', role: 'user' })
    server.use(
      http.get(url('user/profile'), () => HttpResponse.json(profile)),
      http.get(url('user/1/stats'), () => HttpResponse.json({ success: true, data: { name: 'grace', balance: 0.5, totalCalls: 0, totalMinutesUsed: 0 } })),
    )
    renderApp('/dashboard')
    const nav = await screen.findByRole('complementary', { name: 'Main navigation' })
    expect(within(nav).getByText('G')).toBeInTheDocument()
    expect(within(nav).getByTestId('sidebar-user-name')).toHaveTextContent('grace')
    expect(within(nav).getByText('Free plan')).toBeInTheDocument()
    expect(within(nav).getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/dashboard')
    expect(within(nav).getByRole('link', { name: 'Send Call' })).toHaveAttribute('href', '/dashboard/send-call')
    expect(within(nav).getByRole('link', { name: 'Agents' })).toHaveAttribute('href', '/dashboard/agents')
    expect(within(nav).getByRole('link', { name: 'Analysis' })).toHaveAttribute('href', '/dashboard/analysis')
    expect(within(nav).getByRole('link', { name: 'Call Logs' })).toHaveAttribute('href', '/dashboard/call-logs')
    expect(within(nav).getByRole('link', { name: 'Do not call' })).toHaveAttribute('href', '/dashboard/do-not-call')
    expect(within(nav).getByRole('link', { name: 'Campaigns' })).toHaveAttribute('href', '/dashboard/campaigns')
    expect(within(nav).queryByRole('link', { name: 'Dashboard' })).not.toBeInTheDocument()
    expect(await screen.findByTestId('balance')).toHaveTextContent('$0.50')
  })

  it('Logout revokes the token, clears the session and goes to /login', async () => {
    saveSession('1|x', { id: 1, name: 'grace', email: 'g@example.com', role: 'user' })
    server.use(
      http.get(url('user/profile'), () => HttpResponse.json(profile)),
      http.post(url('logout'), () => HttpResponse.json({ success: true, message: 'Logged out successfully' })),
    )
    const { router } = renderApp('/dashboard')
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Logout' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(localStorage.getItem('api_token')).toBeNull()
  })

  it('a failed logout changes nothing', async () => {
    saveSession('1|x', { id: 1, name: 'grace', email: 'g@example.com', role: 'user' })
    server.use(
      http.get(url('user/profile'), () => HttpResponse.json(profile)),
      http.post(url('logout'), () => new HttpResponse(null, { status: 500 })),
    )
    const { router } = renderApp('/dashboard')
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Logout' }))
    await new Promise((r) => setTimeout(r, 50))
    expect(router.state.location.pathname).toBe('/dashboard')
    expect(localStorage.getItem('api_token')).toBe('1|x')
  })

  it('admins get the admin items and a way to the user area', async () => {
    saveSession('2|x', { id: 2, name: 'Root', email: 'r@example.com', role: 'admin' })
    server.use(
      http.get(url('admin/mail-outbox'), () =>
        HttpResponse.json({
          success: true,
          data: [{ id: 1, to: 'v@example.com', subject: 'Verify your Callwright e-mail address', kind: 'verify-email', link: 'http://x/verify', body_text: '', status: 'stored', error: null, created_at: '2026-01-01T00:00:00Z', sent_at: null }],
          pagination: { current_page: 1, last_page: 1, per_page: 10, total: 1 },
        }),
      ),
    )
    renderApp('/admin')
    const nav = await screen.findByRole('complementary', { name: 'Main navigation' })
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/admin')
    expect(within(nav).getByRole('link', { name: 'User area' })).toHaveAttribute('href', '/dashboard')
    expect(within(nav).getByRole('link', { name: 'Do not call' })).toHaveAttribute('href', '/admin/do-not-call')
    expect(await screen.findByText('Verify your Callwright e-mail address')).toBeInTheDocument()
    expect(screen.getByTestId('outbox-link')).toHaveAttribute('href', 'http://x/verify')
  })
})
