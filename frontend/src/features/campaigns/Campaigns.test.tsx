import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import type { components } from '@/lib/api-schema'
import { saveSession } from '@/lib/session'
import { agentHandlers, makeAgent } from '@/testing/agents'
import { socket } from '@/testing/fakeSocket'
import { calls, server, url } from '@/testing/msw'
import { renderApp } from '@/testing/render'

type Campaign = components['schemas']['CampaignOut']
const page = (data: unknown[]) => ({ success: true, data, pagination: { current_page: 1, last_page: 1, per_page: 20, total: data.length } })

function makeCampaign(fields: Partial<Campaign> = {}): Campaign {
  return {
    id: 'c1',
    name: 'Cleanings',
    agent_id: 'a1',
    agent_name: 'Reminder',
    state: 'running',
    state_reason: null,
    start_at: null,
    end_at: null,
    days: [0, 1, 2, 3, 4],
    calling_window: '09:00-20:00',
    concurrency: 3,
    pace_per_minute: 10,
    retries: {},
    spend_cap: null,
    spent: 1.47,
    max_remaining_cost: 9.8,
    counters: { total: 10, pending: 5, calling: 2, done: 3, opted_out: 0, skipped: 0, outcomes: { completed: 2, busy: 1 } },
    created_at: '2026-11-20T10:00:00Z',
    started_at: '2026-11-20T10:05:00Z',
    finished_at: null,
    ...fields,
  }
}

const CONTACT = {
  id: 1,
  row: 2,
  phone_number: '+12125550123',
  variables: { name: 'Ann' },
  timezone: 'America/New_York',
  status: 'done',
  outcome: 'busy',
  note: null,
  attempts: 2,
  next_attempt_at: null,
  last_call_id: 'call-1',
  disposition: 'confirmed',
  fields: null,
}

/** A contact waiting for its window: it says why and until when. */
const WAITING = {
  ...CONTACT,
  id: 2,
  row: 3,
  status: 'pending',
  outcome: null,
  attempts: 0,
  last_call_id: null,
  disposition: null,
  next_attempt_at: '2026-11-30T14:00:00Z',
  note: "Waiting for the campaign's calling window (09:00-17:00 on its days in America/New_York): it opens at Mon 30 Nov 15:00 your time (Europe/Berlin).",
}

describe('Campaigns', () => {
  beforeEach(() => saveSession('1|x', { id: 1, name: 'grace', email: 'g@example.com', role: 'user' }))

  it('lists campaigns with their state and progress, and offers a first one when there are none', async () => {
    server.use(http.get(url('campaigns'), () => HttpResponse.json(page([makeCampaign(), makeCampaign({ id: 'c2', name: 'Leads', state: 'paused' })]))))
    const { unmount } = renderApp('/dashboard/campaigns')
    const table = await screen.findByTestId('campaigns-table')
    expect(await within(table).findByRole('link', { name: 'Cleanings' })).toHaveAttribute('href', '/dashboard/campaigns/c1')
    expect(within(table).getAllByTestId('campaign-state').map((b) => b.textContent)).toEqual(['Running', 'Paused'])
    expect(within(table).getByRole('progressbar', { name: 'Cleanings: 3 of 10 contacts finished' })).toBeInTheDocument()
    unmount()
    server.use(http.get(url('campaigns'), () => HttpResponse.json(page([]))))
    renderApp('/dashboard/campaigns')
    expect(await screen.findByText('No campaigns yet')).toBeInTheDocument()
  })

  it('shows the live counters, moves with the socket, and pauses; cancel asks first', async () => {
    let current = makeCampaign()
    server.use(
      http.get(url('campaigns/c1'), () => HttpResponse.json({ success: true, data: current })),
      http.get(url('campaigns/c1/contacts'), () => HttpResponse.json(page([CONTACT, WAITING]))),
      http.post(url('campaigns/c1/:action'), ({ params }) => {
        current = makeCampaign({ state: params.action === 'pause' ? 'paused' : 'cancelled' })
        return HttpResponse.json({ success: true, message: params.action === 'pause' ? 'Campaign paused: calls in progress will finish.' : 'Campaign cancelled.', data: current })
      }),
    )
    renderApp('/dashboard/campaigns/c1')
    expect(await screen.findByTestId('count-pending')).toHaveTextContent('5')
    expect(screen.getByTestId('count-calling')).toHaveTextContent('2')
    expect(screen.getByTestId('campaign-outcomes')).toHaveTextContent('Completed: 2')
    const row = (await screen.findAllByTestId('contact-row'))[0]
    expect(row).toHaveTextContent('Ann')
    expect(row).toHaveTextContent('Busy')
    expect(within(row).getByRole('link', { name: 'Open' })).toHaveAttribute('href', '/dashboard/call-logs?call=call-1')
    const waiting = (await screen.findAllByTestId('contact-row'))[1]
    expect(within(waiting).getByTestId('contact-waiting')).toHaveTextContent(WAITING.note)

    current = makeCampaign({ counters: { ...current.counters, pending: 4, calling: 1, done: 5 } })
    socket.emit('campaign-updated', { campaignId: 'c1', state: 'running' })
    await waitFor(() => expect(screen.getByTestId('count-done')).toHaveTextContent('5'))

    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Pause' }))
    expect(await screen.findByText('Campaign paused: calls in progress will finish.')).toBeInTheDocument()
    expect(screen.getByTestId('campaign-state')).toHaveTextContent('Paused')
    await user.click(screen.getByRole('button', { name: 'Cancel' }))
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this campaign?' })
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(calls.filter((c) => c.path.endsWith('/cancel'))).toHaveLength(0)
  })

  it('filters the contacts by status', async () => {
    server.use(
      http.get(url('campaigns/c1'), () => HttpResponse.json({ success: true, data: makeCampaign() })),
      http.get(url('campaigns/c1/contacts'), ({ request }) => {
        const status = new URL(request.url).searchParams.get('status')
        return HttpResponse.json(page(status === 'opted-out' ? [] : [CONTACT]))
      }),
    )
    renderApp('/dashboard/campaigns/c1')
    await screen.findAllByTestId('contact-row')
    await userEvent.setup().selectOptions(screen.getByLabelText('Filter by status'), 'opted-out')
    expect(await screen.findByText('No contact matches.')).toBeInTheDocument()
  })

  it('walks the wizard: checks the name, creates the draft, loads the file, saves the schedule and limits, starts', async () => {
    const agents = [makeAgent({ id: 'a1', name: 'Reminder', prompt: 'Confirm {{name}} please, it is Sam.' })]
    let draft = makeCampaign({ state: 'draft', counters: { total: 0 } })
    const saved: unknown[] = []
    server.use(
      ...agentHandlers(agents),
      http.post(url('campaigns'), async ({ request }) => {
        const body = (await request.json()) as Partial<Campaign>
        saved.push(body)
        draft = { ...draft, ...body }
        return HttpResponse.json({ success: true, data: draft }, { status: 201 })
      }),
      http.put(url('campaigns/c1'), async ({ request }) => {
        const body = (await request.json()) as Partial<Campaign>
        saved.push(body)
        draft = { ...draft, ...body }
        return HttpResponse.json({ success: true, data: draft })
      }),
      http.get(url('campaigns/c1'), () => HttpResponse.json({ success: true, data: draft })),
      http.post(url('campaigns/c1/contacts'), () => {
        draft = { ...draft, counters: { total: 2, pending: 2 } }
        return HttpResponse.json({
          success: true,
          data: {
            accepted: 2,
            refused_count: 1,
            refused: [{ row: 4, value: '911', reason: 'An emergency number.' }],
            reasons: { 'An emergency number.': 1 },
            variables: ['name'],
            zone_mismatch_count: 1,
            zone_mismatches: [{ row: 3, phone_number: '+14155552671', file_zone: 'Europe/London', number_zones: ['America/Los_Angeles'] }],
            calling_hours: '08:00-21:00',
          },
        })
      }),
      http.get(url('campaigns/c1/zones'), () => HttpResponse.json({ success: true, data: [{ zones: 'America/New_York', contacts: 2, open_now: false, opens_at: '2026-11-26T14:00:00Z' }] })),
      http.post(url('campaigns/c1/start'), () => {
        draft = { ...draft, state: 'scheduled' }
        return HttpResponse.json({ success: true, message: 'Campaign started.', data: draft })
      }),
      http.get(url('campaigns/c1/contacts'), () => HttpResponse.json(page([]))),
    )
    const user = userEvent.setup()
    const { router } = renderApp('/dashboard/campaigns/new')
    await screen.findByRole('option', { name: 'Reminder ({{name}})' })
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    expect(await screen.findByText('Give the campaign a name.')).toBeInTheDocument()
    expect(saved).toHaveLength(0)
    await user.type(screen.getByLabelText('Campaign name'), 'Week 48')
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    await waitFor(() => expect(saved[0]).toMatchObject({ name: 'Week 48', agent_id: 'a1', days: [0, 1, 2, 3, 4], concurrency: 3 }))

    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled()
    await user.upload(await screen.findByTestId('contacts-file'), new File(['phone,name\n+12125550123,Ann\n'], 'c.csv', { type: 'text/csv' }))
    const report = await screen.findByTestId('load-report')
    expect(report).toHaveTextContent('2 contacts accepted, 1 refused.')
    expect(within(report).getByText('An emergency number.')).toBeInTheDocument()
    const zones = within(report).getByTestId('zone-mismatches')
    expect(zones).toHaveTextContent('1 row names a time zone its number does not ring in.')
    expect(zones).toHaveTextContent('the legal calling hours (08:00-21:00) follow the number\'s own zone')
    expect(zones).toHaveTextContent('Row 3: +14155552671: the file says Europe/London; the legal rule uses America/Los_Angeles.')
    await user.click(screen.getByRole('button', { name: 'Continue' }))

    await user.click(await screen.findByText('Sat'))
    expect(await screen.findByTestId('zone-preview')).toHaveTextContent('2 contacts · opens')
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    await waitFor(() => expect(saved[1]).toMatchObject({ days: [0, 1, 2, 3, 4, 5] }))

    const concurrency = await screen.findByLabelText('Calls at once')
    await user.clear(concurrency)
    await user.type(concurrency, '5')
    await user.type(screen.getByLabelText('Spending cap in $ (optional)'), '25')
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    await waitFor(() => expect(saved[2]).toMatchObject({ concurrency: 5, spend_cap: 25 }))

    expect(await screen.findByTestId('campaign-review')).toHaveTextContent('Week 48')
    await user.click(screen.getByRole('button', { name: 'Start campaign' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/campaigns/c1'))
  })
})
