import { act, screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { saveSession } from '@/lib/session'
import { socket } from '@/testing/fakeSocket'
import { server, url } from '@/testing/msw'
import { renderApp } from '@/testing/render'


const call = (id: string, to: string, seconds: number, status: string) => ({
  call_id: id,
  from: '+18885550100',
  to,
  created_at: '2026-11-16T10:00:00Z',
  status,
  corrected_duration: seconds,
  call_length: seconds + 5,
  record_url: null,
  cost: null,
  max_duration: 2,
  voice: 'joe',
  completed: true,
})

describe('Dashboard home', () => {
  it('shows the welcome, the three stats and the latest calls with duration and cost by the spec', async () => {
    saveSession('1|x', { id: 1, name: 'grace', email: 'g@example.com', role: 'user' })
    let asked = ''
    server.use(
      http.get(url('user/1/stats'), () => HttpResponse.json({ success: true, data: { name: 'Grace Hopper', balance: 12.5, totalCalls: 3, totalMinutesUsed: 2.25 } })),
      http.get(url('user/1/calls'), ({ request }) => {
        asked = new URL(request.url).search
        return HttpResponse.json({
          success: true,
          data: [call('a', '+15551230000', 62, 'completed'), call('b', '+15005550001', 0, 'no-answer')],
          pagination: { current_page: 1, last_page: 1, per_page: 5, total: 2 },
        })
      }),
    )
    renderApp('/dashboard')
    expect(await screen.findByRole('heading', { name: 'Welcome, Grace Hopper' })).toBeInTheDocument()
    expect(screen.getByTestId('balance')).toHaveTextContent('$12.50')
    expect(screen.getByTestId('total-calls')).toHaveTextContent('3')
    expect(screen.getByTestId('total-minutes')).toHaveTextContent('2.25')
    const list = await screen.findByTestId('recent-calls')
    const first = within(list).getAllByRole('listitem')[0]
    expect(first).toHaveTextContent('+15551230000')
    expect(first).toHaveTextContent('1:01')
    expect(first).toHaveTextContent('$0.98')
    expect(first).toHaveTextContent('completed')
    expect(asked).toBe('?page=1&per_page=5')
    expect(screen.getByRole('link', { name: 'View all calls' })).toHaveAttribute('href', '/dashboard/call-logs')
  })

  it('says so when there are no calls, and falls back to "User" without a name', async () => {
    saveSession('1|x', { id: 1, name: '', email: 'g@example.com', role: 'user' })
    server.use(http.get(url('user/1/stats'), () => HttpResponse.json({ success: true, data: { name: '', balance: 0, totalCalls: 0, totalMinutesUsed: 0 } })))
    renderApp('/dashboard')
    expect(await screen.findByText('No recent calls.')).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Welcome, User' })).toBeInTheDocument()
    expect(screen.getByTestId('balance')).toHaveTextContent('$0.00')
  })

  it('shows the error when the calls cannot be loaded', async () => {
    saveSession('1|x', { id: 1, name: 'grace', email: 'g@example.com', role: 'user' })
    server.use(http.get(url('user/1/calls'), () => HttpResponse.json({ success: false, message: 'Database unavailable', errors: {} }, { status: 500 })))
    renderApp('/dashboard')
    expect(await screen.findByText('Failed to load recent calls: Database unavailable')).toBeInTheDocument()
  })

  it('shows a call still going on with a way back to it, and follows the calls as they move, without a reload', async () => {
    saveSession('1|x', { id: 1, name: 'grace', email: 'g@example.com', role: 'user' })
    let live = true
    let listed = [call('c0', '+15550000000', 30, 'completed')]
    server.use(
      http.get(url('user/1/live-calls'), () =>
        HttpResponse.json({
          success: true,
          data: live
            ? [{ call_id: 'c1', status: 'in-progress', to: '+15551234567', prompt: 'Confirm the visit', voice: 'joe', temperature: 0.7, interruption_threshold: 100, background_audio: 'null', max_duration: 2, wait_for_greeting: false, created_at: '2026-11-16T10:00:00Z', answered_at: '2026-11-16T10:00:03Z', transcripts: [] }]
            : [],
        }),
      ),
      http.get(url('user/1/calls'), () => HttpResponse.json({ success: true, data: listed, pagination: { current_page: 1, last_page: 1, per_page: 5, total: listed.length } })),
    )
    renderApp('/dashboard')
    const banner = await screen.findByRole('status', { name: 'Calls in progress' })
    expect(banner).toHaveTextContent('Call to +15551234567 in progress: Connected')
    expect(within(banner).getByRole('link', { name: 'Open live call' })).toHaveAttribute('href', '/dashboard/send-call')
    expect(await screen.findByText('+15550000000')).toBeInTheDocument()

    // The call ends: the socket says so, the banner goes and Recent Calls shows it.
    live = false
    listed = [call('c1', '+15551234567', 42, 'completed'), ...listed]
    act(() => socket.emit('webhook-event', { callId: 'c1', message: 'Closing call stream', category: 'call', completed: true }))
    expect(await screen.findByText('+15551234567')).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('status', { name: 'Calls in progress' })).toBeNull())
  })
})
