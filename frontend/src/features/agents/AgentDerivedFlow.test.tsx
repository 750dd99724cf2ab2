import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import type { components } from '@/lib/api-schema'
import { saveSession } from '@/lib/session'
import { agentHandlers, derivedGraph, makeAgent } from '@/testing/agents'
import { flowHandlers, makeFlow } from '@/testing/flows'
import { calls, server, url } from '@/testing/msw'
import { mockReactFlow } from '@/testing/reactflow'
import { renderApp } from '@/testing/render'

type Flow = components['schemas']['FlowOut']

mockReactFlow()
beforeEach(() => {
  saveSession('1|x', { id: 1, name: 'Grace', email: 'g@example.com', role: 'user' })
  server.use(http.get(url('voices'), () => HttpResponse.json({ voices: [{ name: 'joe', description: '', engine: 'piper', gender: 'male', recording_url: '/x.mp3' }] })))
})

describe('Agent editor: what the offline agent will say', () => {
  it('lists the derived flow in order, refreshes it after the prompt is saved, and edits it as a flow', async () => {
    const store = [makeAgent({ id: 'a1', name: 'Reminder', prompt: 'Remind them of the visit.' })]
    const flows: Flow[] = []
    server.use(
      ...agentHandlers(store),
      ...flowHandlers(flows),
      http.get(url('agents/a1/tools'), () => HttpResponse.json({ success: true, data: [] })),
      http.post(url('agents/:id/derived-flow'), () => {
        const flow = makeFlow({ id: 'flow-9', name: 'Reminder (from prompt)', draft: derivedGraph(store[0]!) })
        flows.push(flow)
        return HttpResponse.json({ success: true, message: 'Flow created from the prompt', data: flow }, { status: 201 })
      }),
    )
    const user = userEvent.setup()
    renderApp('/dashboard/agents/a1')
    const panel = await screen.findByRole('region', { name: 'What the offline agent will say' })
    expect(await within(panel).findByText(/this is the script the agent follows/)).toBeInTheDocument()
    const steps = within(within(panel).getByRole('list', { name: 'The conversation' })).getAllByRole('listitem')
    expect(steps[0]).toHaveTextContent('Greeting: “Hi. Remind them of the visit.”')
    expect(steps[1]).toHaveTextContent('Asks: “Do you have a minute?”')
    const answers = within(panel).getByRole('list', { name: 'Answers to “Do you have a minute?”' })
    expect(within(answers).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Yes → “Great.” then asks “Would you like to go ahead?”',
      'No → “Alright, goodbye.” and ends the call',
      'Anything else → then asks “Would you like to go ahead?”',
    ])
    expect(within(panel).getAllByTestId('derived-question')).toHaveLength(2)
    const always = within(panel).getByRole('list', { name: 'Whatever the question' })
    expect(always).toHaveTextContent('Asks not to be called again: “I\'ve taken your number off our list.”')
    // Said to every question alike: listed once, not under each question.
    expect(within(always).getAllByText(/^Voicemail/)).toHaveLength(1)
    expect(always).toHaveTextContent('Voicemail: “Please call us back.”')

    // Saved with a new prompt: the panel shows the new reading when the agent is opened again.
    const prompt = screen.getByLabelText(/Prompt/, { selector: '#agent-prompt' })
    await user.clear(prompt)
    await user.type(prompt, 'Confirm the cleaning on Friday.')
    await user.click(screen.getByRole('button', { name: 'Save agent' }))
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true))
    await user.click(await screen.findByRole('link', { name: 'Reminder' }))
    const again = await screen.findByRole('region', { name: 'What the offline agent will say' })
    expect(await within(again).findByText(/Hi\. Confirm the cleaning on Friday\./)).toBeInTheDocument()

    await user.click(within(again).getByRole('button', { name: 'Edit as flow' }))
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === 'agents/a1/derived-flow')).toBe(true))
    expect(await screen.findByRole('heading', { name: 'Reminder (from prompt)' })).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'PUT' && c.path === 'agents/a1' && (c.body as { flow_id?: string }).flow_id)).toBe(false)
  })

  it('says a saved agent is needed first', async () => {
    server.use(...agentHandlers([]))
    renderApp('/dashboard/agents/new')
    expect(await screen.findByText('Save the agent to see what it will say.')).toBeInTheDocument()
  })

  it('says when a language model runs the calls instead', async () => {
    const agent = makeAgent({ id: 'a1', name: 'Reminder', prompt: 'Remind them of the visit.' })
    server.use(
      ...agentHandlers([agent]),
      http.get(url('agents/a1/tools'), () => HttpResponse.json({ success: true, data: [] })),
    )
    // Ahead of the store's handler (the last `use` is asked first).
    server.use(http.get(url('agents/a1/derived-flow'), () => HttpResponse.json({ success: true, data: { graph: derivedGraph(agent), offline: false } })))
    renderApp('/dashboard/agents/a1')
    expect(await screen.findByText(/A language model is configured: the agent improvises from the prompt/)).toBeInTheDocument()
  })
})
