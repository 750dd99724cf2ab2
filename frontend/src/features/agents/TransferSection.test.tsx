import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { saveSession } from '@/lib/session'
import { agentHandlers, makeAgent } from '@/testing/agents'
import { calls, server, url } from '@/testing/msw'
import { renderApp } from '@/testing/render'

beforeEach(() => {
  saveSession('1|x', { id: 1, name: 'Grace', email: 'g@example.com', role: 'user' })
  server.use(http.get(url('voices'), () => HttpResponse.json({ voices: [{ name: 'joe', description: '', engine: 'piper', gender: 'male', recording_url: '/x.mp3' }] })))
})

describe('Agent editor: Transfer', () => {
  it('loads a number and departments, checks them, and saves them warm', async () => {
    const store = [makeAgent({ id: 'a1', name: 'Reminder', prompt: 'Remind them of the visit.', transfer_number: '+15005550011', transfer_list: { default: '+15005550011', sales: '+15005550012' } })]
    server.use(...agentHandlers(store))
    const user = userEvent.setup()
    renderApp('/dashboard/agents/a1')
    expect(await screen.findByLabelText('Transfer number (optional)')).toHaveValue('+15005550011')
    expect(screen.getAllByTestId('transfer-department')).toHaveLength(2)
    expect(screen.getByLabelText('Department', { selector: '#department-1-name' })).toHaveValue('sales')

    await user.click(screen.getByRole('button', { name: 'Add department' }))
    await user.type(screen.getByLabelText('Department', { selector: '#department-2-name' }), 'Sales')
    await user.type(screen.getByLabelText('Number', { selector: '#department-2-number' }), 'call me')
    await user.click(screen.getByRole('button', { name: 'Save agent' }))
    expect(await screen.findByText('The department "Sales" is listed twice.')).toBeInTheDocument()
    expect(screen.getByText('Enter the number with its country code, e.g. "+15551234567".')).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Remove department 3' }))
    await user.click(screen.getByLabelText('Warm: the person hears a summary first'))
    await user.clear(screen.getByLabelText('Transfer number (optional)'))
    await user.click(screen.getByRole('button', { name: 'Save agent' }))
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true))
    const sent = calls.find((c) => c.method === 'PUT')?.body as Record<string, unknown>
    expect([sent.transfer_number, sent.transfer_list, sent.transfer_mode]).toEqual([null, { default: '+15005550011', sales: '+15005550012' }, 'warm'])
  })
})
