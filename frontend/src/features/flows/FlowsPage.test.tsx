import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { saveSession } from '@/lib/session'
import { BLANK, flowHandlers, makeFlow } from '@/testing/flows'
import { calls, server, url } from '@/testing/msw'
import { mockReactFlow } from '@/testing/reactflow'
import { renderApp } from '@/testing/render'
import type { Flow } from './types'

mockReactFlow()
beforeEach(() => saveSession('1|x', { id: 1, name: 'Grace', email: 'g@example.com', role: 'user' }))

describe('Flows list', () => {
  it('is in the sidebar, and the empty state offers a blank flow and the four starters', async () => {
    server.use(...flowHandlers([]))
    renderApp('/dashboard/flows')
    expect(await screen.findByText('No flows yet')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Flows' })).toHaveAttribute('href', '/dashboard/flows')
    const starters = await screen.findByRole('list', { name: 'Starter flows' })
    expect(within(starters).getAllByRole('button').map((b) => b.textContent)).toEqual([
      'Appointment confirmationConfirm, or reschedule to a new time.',
      'Lead qualificationBudget, need and timing.',
      'Payment reminderA friendly reminder of a payment due.',
      'SurveyThree short questions.',
    ])
  })

  it('creates a flow from a starter and opens it in the editor', async () => {
    const store: Flow[] = []
    server.use(...flowHandlers(store))
    const user = userEvent.setup()
    const { router } = renderApp('/dashboard/flows')
    await user.click(await screen.findByRole('button', { name: /Appointment confirmation/ }))
    const dialog = await screen.findByRole('dialog', { name: 'New flow' })
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Appointment confirmation')
    expect(within(dialog).getByRole('radio', { name: /Appointment confirmation/ })).toBeChecked()
    await user.clear(within(dialog).getByLabelText('Name'))
    await user.click(within(dialog).getByRole('button', { name: 'Create flow' }))
    expect(await within(dialog).findByText('The name is required')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
    await user.type(within(dialog).getByLabelText('Name'), 'Dentist confirmations')
    await user.click(within(dialog).getByRole('button', { name: 'Create flow' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/flows/flow-1'))
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Dentist confirmations', description: 'Confirm, or reschedule to a new time.', starter: 'appointment' })
    expect(await screen.findByRole('heading', { name: 'Dentist confirmations' })).toBeInTheDocument()
  })

  it('says when the list cannot be loaded, and tries again', async () => {
    server.use(http.get(url('flows'), () => HttpResponse.json({ success: false, message: 'Server Error', errors: {} }, { status: 500 })))
    const user = userEvent.setup()
    renderApp('/dashboard/flows')
    expect(await screen.findByRole('alert')).toHaveTextContent('Server Error')
    server.use(...flowHandlers([makeFlow({ id: 'f1', name: 'Survey' })]))
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('link', { name: 'Survey' })).toBeInTheDocument()
  })

  it('lists name, status and node count, pages, and deletes after a confirmation', async () => {
    const store = Array.from({ length: 21 }, (_, i) => makeFlow({ id: `f${i + 1}`, name: `Flow ${i + 1}`, published_version: i === 0 ? 3 : null }))
    server.use(...flowHandlers(store))
    const user = userEvent.setup()
    renderApp('/dashboard/flows')
    const first = (await screen.findByRole('link', { name: 'Flow 1' })).closest('tr') as HTMLElement
    expect(within(first).getByText('Published v3')).toBeInTheDocument()
    expect(within(first).getByText('Unpublished changes')).toBeInTheDocument()
    expect(within(first).getByText('1')).toBeInTheDocument()
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Next' }))
    expect(await screen.findByRole('link', { name: 'Flow 21' })).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Previous' }))
    await user.click(await screen.findByRole('button', { name: 'Delete Flow 2' }))
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete flow' })).getByRole('button', { name: 'Cancel' }))
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false)
    await user.click(screen.getByRole('button', { name: 'Delete Flow 2' }))
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete flow' })).getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('Flow "Flow 2" deleted')).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Flow 2' })).not.toBeInTheDocument())
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['flows/f2'])
  })

  it('imports a flow file, and names what is wrong with a bad one', async () => {
    const store: Flow[] = []
    server.use(...flowHandlers(store))
    const user = userEvent.setup()
    const { router } = renderApp('/dashboard/flows')
    await screen.findByText('No flows yet')
    const picker = screen.getByTestId('flow-file')
    await user.upload(picker, new File(['not json'], 'broken.json', { type: 'application/json' }))
    expect(await screen.findByText('broken.json is not a JSON file')).toBeInTheDocument()
    await user.upload(picker, new File([JSON.stringify({ format: 'other/1', name: 'X', graph: BLANK })], 'old.json', { type: 'application/json' }))
    expect(await screen.findByText('The given data was invalid.')).toBeInTheDocument()
    expect(store).toHaveLength(0)
    const file = { format: 'callwright-flow/1', name: 'Imported survey', description: '', graph: BLANK }
    await user.upload(picker, new File([JSON.stringify(file)], 'survey.json', { type: 'application/json' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/flows/flow-1'))
    expect(calls.filter((c) => c.path === 'flows/import').at(-1)?.body).toEqual(file)
  })
})
