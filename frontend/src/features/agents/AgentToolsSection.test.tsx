import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import type { AgentTool, AgentToolBody } from '@/components/agents/tools'
import { saveSession } from '@/lib/session'
import { agentHandlers, makeAgent } from '@/testing/agents'
import { calls, server, url } from '@/testing/msw'
import { renderApp } from '@/testing/render'

const STAMP = '2026-11-20T10:00:00Z'
const AGENT = makeAgent({ id: 'a1', name: 'Dental reminder', prompt: 'You are Sam from Acme Dental.' })

function toolOf(id: number, body: AgentToolBody): AgentTool {
  return {
    id,
    name: body.name,
    description: body.description,
    parameters: body.parameters ?? { type: 'object', properties: {} },
    method: body.method ?? 'POST',
    url: body.url,
    headers: (body.headers ?? []).map((h) => ({ name: h.name, set: true })),
    body: body.body ?? null,
    timeout_seconds: body.timeout_seconds ?? 5,
    waiting_line: body.waiting_line ?? 'One moment while I check that.',
    created_at: STAMP,
    updated_at: STAMP,
  }
}

/** A fake tools API over `store`; a tool named "taken" is refused the server's way. */
function toolHandlers(store: AgentTool[]) {
  let next = 1
  return [
    http.get(url('agents/a1/tools'), () => HttpResponse.json({ success: true, data: store })),
    http.post(url('agents/a1/tools'), async ({ request }) => {
      const body = (await request.json()) as AgentToolBody
      if (body.name === 'taken')
        return HttpResponse.json({ success: false, message: 'The agent already has a tool named "taken".', errors: { name: ['The agent already has a tool named "taken".'] } }, { status: 422 })
      const tool = toolOf(next++, body)
      store.push(tool)
      return HttpResponse.json({ success: true, message: 'Tool added', data: tool }, { status: 201 })
    }),
    http.put(url('agents/a1/tools/:id'), async ({ request, params }) => {
      const i = store.findIndex((t) => t.id === Number(params.id))
      store[i] = toolOf(Number(params.id), (await request.json()) as AgentToolBody)
      return HttpResponse.json({ success: true, message: 'Tool saved', data: store[i] })
    }),
    http.delete(url('agents/a1/tools/:id'), ({ params }) => {
      store.splice(store.findIndex((t) => t.id === Number(params.id)), 1)
      return HttpResponse.json({ success: true, message: 'Tool deleted' })
    }),
    http.post(url('agents/a1/tools/:id/test'), () =>
      HttpResponse.json({ success: true, data: { status: 'succeeded', status_code: 200, latency_ms: 87, excerpt: '{"free":true}', error: null } }),
    ),
  ]
}

beforeEach(() => {
  saveSession('1|x', { id: 1, name: 'Grace', email: 'g@example.com', role: 'user' })
  server.use(http.get(url('voices'), () => HttpResponse.json({ voices: [{ name: 'joe', description: '', engine: 'piper', gender: 'male', recording_url: '/x.mp3' }] })))
})

async function openEditor(store: AgentTool[]) {
  server.use(...agentHandlers([AGENT]), ...toolHandlers(store))
  const user = userEvent.setup()
  renderApp('/dashboard/agents/a1')
  const section = await screen.findByRole('region', { name: 'Tools' })
  await within(section).findByText('No tools yet.')
  return { user, section }
}

describe('Agent editor: Tools', () => {
  it('asks a new agent to be created first', async () => {
    renderApp('/dashboard/agents/new')
    const section = await screen.findByRole('region', { name: 'Tools' })
    expect(within(section).getByText('Create the agent first, then add its tools here.')).toBeInTheDocument()
  })

  it('checks a tool, adds it with its secret header, shows the header masked and tests it', async () => {
    const store: AgentTool[] = []
    const { user, section } = await openEditor(store)
    await user.click(within(section).getByRole('button', { name: 'Add tool' }))
    const form = within(section).getByRole('group', { name: 'New tool' })
    await user.click(within(form).getByRole('button', { name: 'Add tool' }))
    expect(within(form).getByText('A letter or underscore, then letters, digits, underscores and dashes (at most 64).')).toBeInTheDocument()
    expect(within(form).getByText('An http:// or https:// URL.')).toBeInTheDocument()

    await user.type(within(form).getByLabelText('Tool name'), 'check_calendar')
    await user.type(within(form).getByLabelText('Description'), 'Whether a day is free.')
    const parameters = within(form).getByLabelText('Parameters (JSON Schema)')
    await user.clear(parameters)
    await user.type(parameters, '{{"type": "array"}')
    await user.type(within(form).getByLabelText('URL'), 'https://api.example.com/calendar')
    await user.click(within(form).getByRole('button', { name: 'Add header' }))
    await user.type(within(form).getByLabelText('Header 1 name'), 'Authorization')
    await user.type(within(form).getByLabelText('Header 1 value'), 'Bearer s3cret')
    await user.click(within(form).getByRole('button', { name: 'Add tool' }))
    expect(within(form).getByText('A JSON Schema of "type": "object".')).toBeInTheDocument()
    await user.clear(parameters)
    await user.type(parameters, '{{"type": "object", "properties": {{"day": {{"type": "string"}}}')
    await user.click(within(form).getByRole('button', { name: 'Add tool' }))

    await within(section).findByText('check_calendar')
    const sent = calls.find((c) => c.method === 'POST' && c.path === 'agents/a1/tools')?.body as AgentToolBody
    expect(sent.headers).toEqual([{ name: 'Authorization', value: 'Bearer s3cret' }])
    expect(sent.parameters).toEqual({ type: 'object', properties: { day: { type: 'string' } } })
    expect(within(section).getByText('Headers: Authorization: ••••••••')).toBeInTheDocument()
    expect(section.textContent).not.toContain('s3cret')

    await user.click(within(section).getByRole('button', { name: 'Test check_calendar' }))
    const sample = within(section).getByLabelText('Sample arguments for check_calendar')
    expect(JSON.parse((sample as HTMLTextAreaElement).value)).toEqual({ day: '' })
    await user.click(within(section).getByRole('button', { name: 'Run test' }))
    const result = await within(section).findByRole('status', { name: 'Test result' })
    expect(result).toHaveTextContent('succeeded · HTTP 200 · 87 ms')
    expect(result).toHaveTextContent('{"free":true}')
    const tested = calls.find((c) => c.path === 'agents/a1/tools/1/test')?.body
    expect(tested).toEqual({ arguments: { day: '' }, variables: {} })
  })

  it('keeps a secret left empty on edit, shows the server refusal beside its field, and deletes', async () => {
    const store = [toolOf(7, { name: 'lookup', description: 'Find an order.', url: 'https://x.example.com/o', headers: [{ name: 'X-Key', value: 'k' }] })]
    server.use(...agentHandlers([AGENT]), ...toolHandlers(store))
    const user = userEvent.setup()
    renderApp('/dashboard/agents/a1')
    const section = await screen.findByRole('region', { name: 'Tools' })
    await user.click(await within(section).findByRole('button', { name: 'Edit lookup' }))
    const form = within(section).getByRole('group', { name: 'Edit lookup' })
    expect(within(form).getByLabelText('Header 1 value')).toHaveAttribute('placeholder', '•••••••• (kept)')
    const name = within(form).getByLabelText('Tool name')
    await user.clear(name)
    await user.type(name, 'find_order')
    await user.click(within(form).getByRole('button', { name: 'Save tool' }))
    await within(section).findByText('find_order')
    const put = calls.find((c) => c.method === 'PUT' && c.path === 'agents/a1/tools/7')?.body as AgentToolBody
    expect(put.headers).toEqual([{ name: 'X-Key' }])

    await user.click(within(section).getByRole('button', { name: 'Add tool' }))
    const added = within(section).getByRole('group', { name: 'New tool' })
    await user.type(within(added).getByLabelText('Tool name'), 'taken')
    await user.type(within(added).getByLabelText('Description'), 'x')
    await user.type(within(added).getByLabelText('URL'), 'https://x.example.com')
    await user.click(within(added).getByRole('button', { name: 'Add tool' }))
    expect(await within(added).findByText('The agent already has a tool named "taken".')).toBeInTheDocument()
    await user.click(within(added).getByRole('button', { name: 'Cancel' }))

    await user.click(within(section).getByRole('button', { name: 'Delete find_order' }))
    await user.click(await screen.findByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(store).toEqual([]))
    expect(await within(section).findByText('No tools yet.')).toBeInTheDocument()
  })
})
