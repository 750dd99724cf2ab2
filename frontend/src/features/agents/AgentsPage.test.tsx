import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { saveSession } from '@/lib/session'
import { agentHandlers, makeAgent } from '@/testing/agents'
import { calls, server, url } from '@/testing/msw'
import { renderApp } from '@/testing/render'

beforeEach(() => saveSession('1|x', { id: 1, name: 'Grace', email: 'g@example.com', role: 'user' }))

describe('Agents list', () => {
  it('shows the empty state with a way to create the first agent', async () => {
    server.use(...agentHandlers([]))
    renderApp('/dashboard/agents')
    expect(await screen.findByText('No agents yet')).toBeInTheDocument()
    expect(screen.getAllByRole('link', { name: 'New agent' })[0]).toHaveAttribute('href', '/dashboard/agents/new')
  })

  it('says when the list cannot be loaded, and tries again', async () => {
    server.use(http.get(url('agents'), () => HttpResponse.json({ success: false, message: 'Server Error', errors: {} }, { status: 500 })))
    const user = userEvent.setup()
    renderApp('/dashboard/agents')
    expect(await screen.findByRole('alert')).toHaveTextContent('Server Error')
    server.use(...agentHandlers([makeAgent({ id: 'a1', name: 'Reminder', prompt: 'Remind {{name}} of the appointment.' })]))
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('link', { name: 'Reminder' })).toBeInTheDocument()
  })

  it('lists name, voice, variables and update time, pages, and deletes after a confirmation', async () => {
    const store = Array.from({ length: 21 }, (_, i) => makeAgent({ id: `a${i + 1}`, name: `Agent ${i + 1}`, prompt: 'Call {{name}} about {{topic}} today.', voice: i === 0 ? 'amy' : 'joe' }))
    server.use(...agentHandlers(store))
    const user = userEvent.setup()
    renderApp('/dashboard/agents')
    const table = await screen.findByTestId('agents-table')
    const first = (await within(table).findByRole('link', { name: 'Agent 1' })).closest('tr') as HTMLElement
    expect(within(first).getByText('amy')).toBeInTheDocument()
    expect(within(first).getByText('{{name}} {{topic}}')).toBeInTheDocument()
    expect(within(first).getByRole('link', { name: 'Edit Agent 1' })).toHaveAttribute('href', '/dashboard/agents/a1')
    expect(within(first).getByText(/2026/)).toBeInTheDocument()
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Next' }))
    expect(await screen.findByRole('link', { name: 'Agent 21' })).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Previous' }))
    await screen.findByRole('link', { name: 'Agent 2' })

    await user.click(screen.getByRole('button', { name: 'Delete Agent 2' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete agent' })
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false)
    expect(store).toHaveLength(21)

    await user.click(screen.getByRole('button', { name: 'Delete Agent 2' }))
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete agent' })).getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('Agent "Agent 2" deleted')).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Agent 2' })).not.toBeInTheDocument())
    expect(store.map((a) => a.id)).not.toContain('a2')
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['agents/a2'])
  })
})
