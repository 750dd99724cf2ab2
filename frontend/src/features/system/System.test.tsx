import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { saveSession } from '@/lib/session'
import { calls, server, url } from '@/testing/msw'
import { renderApp } from '@/testing/render'
import { DISMISSED_KEY } from './notices'

const mode = (carrier: string, brain: string) => http.get(url('system/mode'), () => HttpResponse.json({ success: true, data: { carrier, brain, llm_model: null } }))

const signInUser = () => saveSession('1|x', { id: 1, name: 'grace', email: 'g@example.com', role: 'user' })
const signInAdmin = () => saveSession('2|x', { id: 2, name: 'ada', email: 'a@example.com', role: 'admin' })

describe('Mode notices', () => {
  it('say that calls go to the sandbox and the brain is the offline policy, with where to read more', async () => {
    signInUser()
    server.use(mode('sandbox', 'offline'))
    renderApp('/dashboard')
    const sandbox = await screen.findByRole('region', { name: 'Calls go to the sandbox network' })
    expect(within(sandbox).getByRole('link', { name: 'See the sandbox numbers' })).toHaveAttribute('href', '/dashboard/sandbox')
    const brain = screen.getByRole('region', { name: "The agent's brain is the offline demo policy" })
    expect(brain).toHaveTextContent('LLM_BASE_URL')
    expect(brain).toHaveTextContent('LLM_MODEL')
    // A user is not sent to the admin's page.
    expect(within(brain).queryByRole('link', { name: 'Open the System page' })).not.toBeInTheDocument()
  })

  it('stay dismissed once dismissed, across reloads', async () => {
    signInUser()
    server.use(mode('sandbox', 'offline'))
    const user = userEvent.setup()
    const first = renderApp('/dashboard')
    await user.click(await screen.findByRole('button', { name: 'Dismiss: Calls go to the sandbox network' }))
    expect(screen.queryByRole('region', { name: 'Calls go to the sandbox network' })).not.toBeInTheDocument()
    expect(localStorage.getItem(DISMISSED_KEY.sandbox)).toBe('1')
    // The other notice is still there until it is dismissed itself.
    expect(screen.getByRole('region', { name: "The agent's brain is the offline demo policy" })).toBeInTheDocument()
    first.unmount()

    renderApp('/dashboard/call-logs')
    expect(await screen.findByRole('region', { name: "The agent's brain is the offline demo policy" })).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Calls go to the sandbox network' })).not.toBeInTheDocument()
  })

  it('do not show on a server with a real carrier and an LLM', async () => {
    signInUser()
    renderApp('/dashboard')
    await screen.findByRole('heading', { level: 1 })
    await waitFor(() => expect(calls.some((c) => c.path === 'system/mode')).toBe(true))
    await new Promise((resolve) => setTimeout(resolve, 50)) // the answer has been rendered
    expect(screen.queryByRole('region', { name: /sandbox|offline/ })).not.toBeInTheDocument()
  })
})

describe('Sandbox numbers page', () => {
  it('lists the plan the server gives', async () => {
    signInUser()
    server.use(
      mode('sandbox', 'offline'),
      http.get(url('system/sandbox-numbers'), () =>
        HttpResponse.json({
          success: true,
          data: {
            from_number: '+18885550100',
            special: [{ number: '+15005550002', kind: 'busy', label: 'the line is busy', outcome: 'busy', lines: [] }],
            scenarios: [{ number: '+15551230003', kind: 'person', label: 'interested: listens, asks, agrees', outcome: 'completed', lines: ['Yes, speaking. Who is calling?'] }],
          },
        }),
      ),
    )
    renderApp('/dashboard/sandbox')
    const special = await screen.findByTestId('sandbox-special')
    expect(await within(special).findByText('+15005550002')).toBeInTheDocument()
    expect(within(special).getByText('Busy')).toBeInTheDocument()
    const scenarios = screen.getByTestId('sandbox-scenarios')
    expect(within(scenarios).getByText('“Yes, speaking. Who is calling?”')).toBeInTheDocument()
    expect(screen.getByText('+18885550100')).toBeInTheDocument()
    expect(screen.getByText(/at any hour: every callee here is simulated/)).toBeInTheDocument()
  })
})

const part = (key: string, name: string, health: string, detail: string) => ({ key, name, value: key === 'database' ? 'sqlite' : 'in-process', health, detail, latency_ms: 1.5, settings: [] })

describe('Admin System page', () => {
  it('shows each part with its health and names the failing ones; Check again asks again', async () => {
    signInAdmin()
    let asked = 0
    server.use(
      http.get(url('admin/form-inbox/unread-count'), () => HttpResponse.json({ success: true, data: { unread: 0 } })),
      http.get(url('admin/system'), () => {
        asked += 1
        return HttpResponse.json({
          success: true,
          data: {
            checked_at: '2026-11-25T16:00:00Z',
            health: 'failing',
            components: [
              part('database', 'Database', 'ok', 'SELECT 1 answered.'),
              part('realtime', 'Realtime manager', 'failing', 'Redis did not answer PING: connection refused'),
              part('payments', 'Payments', 'off', 'No payment provider is set up.'),
            ],
          },
        })
      }),
    )
    const user = userEvent.setup()
    renderApp('/admin/system')
    expect(await screen.findByRole('status')).toHaveTextContent('1 part is failing: Realtime manager.')
    const realtime = screen.getByTestId('system-realtime')
    expect(within(realtime).getByText('Failing')).toBeInTheDocument()
    expect(within(realtime).getByText(/connection refused/)).toBeInTheDocument()
    expect(within(screen.getByTestId('system-database')).getByText('OK')).toBeInTheDocument()
    expect(within(screen.getByTestId('system-payments')).getByText('Not configured')).toBeInTheDocument()
    const nav = screen.getByRole('complementary', { name: 'Main navigation' })
    expect(within(nav).getByRole('link', { name: 'System' })).toHaveAttribute('href', '/admin/system')
    await user.click(screen.getByRole('button', { name: 'Check again' }))
    await waitFor(() => expect(asked).toBe(2))
  })

  it('says so when the report cannot be loaded', async () => {
    signInAdmin()
    server.use(
      http.get(url('admin/form-inbox/unread-count'), () => HttpResponse.json({ success: true, data: { unread: 0 } })),
      http.get(url('admin/system'), () => HttpResponse.json({ success: false, message: 'Server Error' }, { status: 500 })),
    )
    renderApp('/admin/system')
    expect(await screen.findByRole('alert')).toHaveTextContent(/Server Error|Failed to check the system/)
  })
})
