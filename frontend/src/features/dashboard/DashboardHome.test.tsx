import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { saveSession } from '@/lib/session'
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
})
