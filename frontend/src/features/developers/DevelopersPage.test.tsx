import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { saveSession } from '@/lib/session'
import { calls, server, url } from '@/testing/msw'
import { renderApp } from '@/testing/render'

const page = (data: unknown[], total = data.length) => ({ success: true, data, pagination: { current_page: 1, last_page: 1, per_page: 20, total } })

const KEY = { id: 3, name: 'CRM sync', prefix: 'cw_abcdefgh', created_at: '2026-11-20T10:00:00Z', last_used_at: null }
const ENDPOINT = {
  id: 7,
  url: 'https://hooks.example.com/in',
  description: 'CRM',
  events: ['call.ended', 'call.analyzed'],
  enabled: true,
  disabled_reason: null,
  failing_since: null,
  created_at: '2026-11-20T10:00:00Z',
}
const DELIVERY = {
  id: 'msg_1',
  event: 'call.ended',
  url: 'https://hooks.example.com/in',
  endpoint_id: 7,
  call_id: 'call-1',
  status: 'failed',
  attempts: 2,
  last_status_code: 500,
  next_attempt_at: null,
  created_at: '2026-11-21T10:00:00Z',
  finished_at: '2026-11-21T10:01:00Z',
}
const DETAIL = {
  ...DELIVERY,
  payload: '{"type":"call.ended","timestamp":"2026-11-21T10:00:00Z","data":{"call_id":"call-1"}}',
  attempts_log: [
    { id: 1, attempted_at: '2026-11-21T10:00:00Z', status_code: 500, response_ms: 120, response_excerpt: 'boom', error: null },
    { id: 2, attempted_at: '2026-11-21T10:00:05Z', status_code: null, response_ms: 10000, response_excerpt: '', error: 'Timed out.' },
  ],
}

function fakeApi({ keys = [KEY], endpoints = [ENDPOINT], deliveries = [DELIVERY] }: { keys?: unknown[]; endpoints?: unknown[]; deliveries?: unknown[] } = {}) {
  server.use(
    http.get(url('api-keys'), () => HttpResponse.json(page(keys))),
    http.post(url('api-keys'), async ({ request }) => {
      const body = (await request.json()) as { name: string }
      return HttpResponse.json({ success: true, data: { ...KEY, id: 4, name: body.name, prefix: 'cw_newkey12' }, key: 'cw_newkey12SECRETSECRET' }, { status: 201 })
    }),
    http.delete(url('api-keys/:id'), () => HttpResponse.json({ success: true, message: 'API key revoked.' })),
    http.get(url('webhook-endpoints'), () => HttpResponse.json(page(endpoints))),
    http.post(url('webhook-endpoints'), async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>
      return HttpResponse.json({ success: true, data: { ...ENDPOINT, id: 8, ...body }, secret: 'whsec_ENDPOINTSECRET' }, { status: 201 })
    }),
    http.put(url('webhook-endpoints/:id'), async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>
      return HttpResponse.json({ success: true, data: { ...ENDPOINT, ...body } })
    }),
    http.delete(url('webhook-endpoints/:id'), () => HttpResponse.json({ success: true, message: 'Webhook endpoint deleted.' })),
    http.get(url('developers/signing-secret'), () => HttpResponse.json({ success: true, secret: 'whsec_USERSECRET' })),
    http.post(url('developers/signing-secret/rotate'), () => HttpResponse.json({ success: true, secret: 'whsec_ROTATED' })),
    http.get(url('webhook-deliveries'), () => HttpResponse.json(page(deliveries))),
    http.get(url('webhook-deliveries/:id'), () => HttpResponse.json({ success: true, data: DETAIL })),
    http.post(url('webhook-deliveries/:id/resend'), () => HttpResponse.json({ success: true, data: { ...DETAIL, status: 'pending' } })),
  )
}

const asked = (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path)

beforeEach(() => {
  calls.length = 0
  saveSession('1|x', { id: 1, name: 'Grace', email: 'g@example.com', role: 'user' })
})

describe('Developers page', () => {
  it('is in the sidebar and lists keys, endpoints and deliveries', async () => {
    fakeApi()
    renderApp('/dashboard/developers')
    const keys = await screen.findByTestId('keys-table')
    expect(await within(keys).findByText('CRM sync')).toBeInTheDocument()
    expect(within(keys).getByText('cw_abcdefgh…')).toBeInTheDocument()
    expect(within(keys).getByText('Never')).toBeInTheDocument()
    const endpoints = screen.getByTestId('endpoints-table')
    expect(await within(endpoints).findByText('https://hooks.example.com/in')).toBeInTheDocument()
    expect(within(endpoints).getByRole('switch', { name: 'Enable https://hooks.example.com/in' })).toHaveAttribute('aria-checked', 'true')
    const deliveries = screen.getByTestId('deliveries-table')
    expect(await within(deliveries).findByText('failed')).toBeInTheDocument()
    expect(within(deliveries).getByText('500')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Developers' })).toHaveAttribute('href', '/dashboard/developers')
    expect(screen.getByText(/curl -X POST .*\/v1\/calls/)).toBeInTheDocument()
  })

  it('says so when there is nothing yet, and when loading fails', async () => {
    fakeApi({ keys: [], deliveries: [] })
    server.use(http.get(url('webhook-endpoints'), () => HttpResponse.json({ success: false, message: 'Server Error', errors: {} }, { status: 500 })))
    renderApp('/dashboard/developers')
    expect(await screen.findByText('No API keys yet. Create one to use the /v1 API.')).toBeInTheDocument()
    expect(await screen.findByText('Failed to load webhook endpoints')).toBeInTheDocument()
    expect(await screen.findByText('No deliveries yet.')).toBeInTheDocument()
  })

  it('creates a key and shows it once with a copy button', async () => {
    fakeApi()
    const user = userEvent.setup()
    renderApp('/dashboard/developers')
    await user.click(await screen.findByRole('button', { name: /Create key/ }))
    const dialog = await screen.findByRole('dialog')
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }))
    expect(await within(dialog).findByText('Give the key a name')).toBeInTheDocument()
    await user.type(within(dialog).getByLabelText('Name'), 'Zapier')
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }))
    expect(await within(dialog).findByText('cw_newkey12SECRETSECRET')).toBeInTheDocument()
    expect(within(dialog).getByText(/you won't see it again/)).toBeInTheDocument()
    expect(asked('POST', 'api-keys')[0]?.body).toEqual({ name: 'Zapier' })
    await user.click(within(dialog).getByRole('button', { name: 'Copy api key' }))
    expect(await navigator.clipboard.readText()).toBe('cw_newkey12SECRETSECRET')
    await user.click(within(dialog).getByRole('button', { name: 'Done' }))
    await waitFor(() => expect(screen.queryByText('cw_newkey12SECRETSECRET')).not.toBeInTheDocument())
  })

  it('revokes a key after confirming', async () => {
    fakeApi()
    const user = userEvent.setup()
    renderApp('/dashboard/developers')
    await user.click(await screen.findByRole('button', { name: 'Revoke CRM sync' }))
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByText(/refused at once/)).toBeInTheDocument()
    expect(asked('DELETE', 'api-keys/3')).toHaveLength(0)
    await user.click(within(dialog).getByRole('button', { name: 'Revoke key' }))
    await waitFor(() => expect(asked('DELETE', 'api-keys/3')).toHaveLength(1))
  })

  it('adds an endpoint with chosen events and shows its secret once', async () => {
    fakeApi()
    const user = userEvent.setup()
    renderApp('/dashboard/developers')
    await user.click(await screen.findByRole('button', { name: /Add endpoint/ }))
    const dialog = await screen.findByRole('dialog')
    await user.type(within(dialog).getByLabelText('URL'), 'ftp://nope')
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }))
    expect(await within(dialog).findByText('Enter an http:// or https:// URL')).toBeInTheDocument()
    await user.clear(within(dialog).getByLabelText('URL'))
    await user.type(within(dialog).getByLabelText('URL'), 'https://crm.example.com/hook')
    await user.type(within(dialog).getByLabelText('Description'), 'CRM')
    await user.click(within(dialog).getByRole('checkbox', { name: 'call.queued' }))
    await user.click(within(dialog).getByRole('checkbox', { name: 'call.started' }))
    await user.click(within(dialog).getByRole('checkbox', { name: 'campaign.paused' }))
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }))
    expect(await within(dialog).findByText('whsec_ENDPOINTSECRET')).toBeInTheDocument()
    expect(within(dialog).getByText(/you won't see it again/)).toBeInTheDocument()
    expect(asked('POST', 'webhook-endpoints')[0]?.body).toEqual({
      url: 'https://crm.example.com/hook',
      description: 'CRM',
      events: ['call.action', 'call.ended', 'call.analyzed', 'campaign.started', 'campaign.completed'],
      enabled: true,
    })
  })

  it('says when a saved endpoint URL is on a private address', async () => {
    fakeApi()
    const notice = 'This URL is on a private address (127.0.0.1 is a loopback address). Allowed: the server listens on loopback only.'
    server.use(
      http.post(url('webhook-endpoints'), async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>
        return HttpResponse.json({ success: true, data: { ...ENDPOINT, id: 8, ...body }, secret: 'whsec_ENDPOINTSECRET', notice }, { status: 201 })
      }),
    )
    const user = userEvent.setup()
    renderApp('/dashboard/developers')
    await user.click(await screen.findByRole('button', { name: /Add endpoint/ }))
    const dialog = await screen.findByRole('dialog')
    await user.type(within(dialog).getByLabelText('URL'), 'http://127.0.0.1:9000/hook')
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }))
    expect(await within(dialog).findByText('whsec_ENDPOINTSECRET')).toBeInTheDocument()
    expect(within(dialog).getByTestId('endpoint-notice')).toHaveTextContent(notice)
  })

  it('shows the server refusing an endpoint URL', async () => {
    fakeApi()
    server.use(
      http.post(url('webhook-endpoints'), () =>
        HttpResponse.json({ success: false, message: 'You can have at most 10 webhook endpoints.', errors: { url: ['You can have at most 10 webhook endpoints.'] } }, { status: 422 }),
      ),
    )
    const user = userEvent.setup()
    renderApp('/dashboard/developers')
    await user.click(await screen.findByRole('button', { name: /Add endpoint/ }))
    const dialog = await screen.findByRole('dialog')
    await user.type(within(dialog).getByLabelText('URL'), 'https://crm.example.com/hook')
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }))
    expect(await within(dialog).findByText('You can have at most 10 webhook endpoints.')).toBeInTheDocument()
  })

  it('disables, edits and deletes an endpoint', async () => {
    fakeApi()
    const user = userEvent.setup()
    renderApp('/dashboard/developers')
    await user.click(await screen.findByRole('switch', { name: 'Enable https://hooks.example.com/in' }))
    await waitFor(() => expect(asked('PUT', 'webhook-endpoints/7')[0]?.body).toEqual({ enabled: false }))

    await user.click(screen.getByRole('button', { name: 'Edit https://hooks.example.com/in' }))
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByLabelText('URL')).toHaveValue('https://hooks.example.com/in')
    expect(within(dialog).getByRole('checkbox', { name: 'call.queued' })).not.toBeChecked()
    await user.click(within(dialog).getByRole('checkbox', { name: 'call.ended' }))
    await user.click(within(dialog).getByRole('checkbox', { name: 'call.analyzed' }))
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByText('Choose at least one event')).toBeInTheDocument()
    await user.click(within(dialog).getByRole('checkbox', { name: 'call.started' }))
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(asked('PUT', 'webhook-endpoints/7')[1]?.body).toMatchObject({ events: ['call.started'] }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())

    await user.click(screen.getByRole('button', { name: 'Delete https://hooks.example.com/in' }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete endpoint' }))
    await waitFor(() => expect(asked('DELETE', 'webhook-endpoints/7')).toHaveLength(1))
  })

  it('reveals, copies and rotates the signing secret', async () => {
    fakeApi()
    const user = userEvent.setup()
    renderApp('/dashboard/developers')
    const shown = await screen.findByTestId('signing-secret')
    expect(shown).not.toHaveTextContent('whsec_USERSECRET')
    expect(asked('GET', 'developers/signing-secret')).toHaveLength(0)
    await user.click(screen.getByRole('button', { name: 'Reveal the signing secret' }))
    await waitFor(() => expect(shown).toHaveTextContent('whsec_USERSECRET'))
    await user.click(screen.getByRole('button', { name: 'Copy the signing secret' }))
    expect(await navigator.clipboard.readText()).toBe('whsec_USERSECRET')
    await user.click(screen.getByRole('button', { name: /Rotate/ }))
    const dialog = await screen.findByRole('dialog')
    await user.click(within(dialog).getByRole('button', { name: 'Rotate secret' }))
    await waitFor(() => expect(shown).toHaveTextContent('whsec_ROTATED'))
    expect(asked('POST', 'developers/signing-secret/rotate')).toHaveLength(1)
  })

  it('opens a delivery with its attempts and payload, resends it, and filters the log', async () => {
    fakeApi()
    const user = userEvent.setup()
    renderApp('/dashboard/developers')
    await user.click(await screen.findByRole('button', { name: 'Open delivery msg_1' }))
    const details = await screen.findByTestId('delivery-details')
    expect(within(details).getByText('boom')).toBeInTheDocument()
    expect(within(details).getByText('Timed out.')).toBeInTheDocument()
    expect(within(details).getByText(/"call_id": "call-1"/)).toBeInTheDocument()
    // From now on the server reports the new attempt under way.
    server.use(http.get(url('webhook-deliveries/:id'), () => HttpResponse.json({ success: true, data: { ...DETAIL, status: 'pending' } })))
    await user.click(within(details).getByRole('button', { name: /Resend/ }))
    await waitFor(() => expect(asked('POST', 'webhook-deliveries/msg_1/resend')).toHaveLength(1))
    expect(await within(details).findByText('pending')).toBeInTheDocument()
    await user.keyboard('{Escape}')

    const queries: string[] = []
    server.use(
      http.get(url('webhook-deliveries'), ({ request }) => {
        queries.push(new URL(request.url).searchParams.toString())
        return HttpResponse.json(page([]))
      }),
    )
    await user.selectOptions(screen.getByLabelText('Filter by status'), 'failed')
    await user.selectOptions(screen.getByLabelText('Filter by event'), 'call.ended')
    await user.selectOptions(screen.getByLabelText('Filter by endpoint'), 'https://hooks.example.com/in')
    await waitFor(() => expect(queries).toContain('status=failed&event=call.ended&endpoint_id=7&page=1&per_page=10'))
    expect(await screen.findByText('No deliveries yet.')).toBeInTheDocument()
  })
})
