import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { saveSession } from '@/lib/session'
import { agentHandlers, makeAgent } from '@/testing/agents'
import { flowHandlers, makeFlow } from '@/testing/flows'
import { labHandlers, makeResult, makeRun, makeScenario } from '@/testing/lab'
import { calls, server, url } from '@/testing/msw'
import { renderApp } from '@/testing/render'

beforeEach(() => {
  saveSession('1|x', { id: 1, name: 'Grace', email: 'g@example.com', role: 'user' })
  server.use(...agentHandlers([makeAgent({ id: 'a1', name: 'Reminders', prompt: 'Confirm the cleaning appointment.' })]))
})

describe('the Tests tab', () => {
  it('offers the starter suite on an empty suite, and lists what it added by suite with their kinds and expectation counts', async () => {
    const store: ReturnType<typeof makeScenario>[] = []
    server.use(...labHandlers(store))
    const user = userEvent.setup()
    renderApp('/dashboard/agents/a1/tests')
    expect(await screen.findByTestId('lab-empty')).toHaveTextContent('No scenarios yet')
    expect(screen.getByRole('link', { name: 'Tests' })).toHaveAttribute('aria-current', 'page')
    expect(screen.getByRole('button', { name: 'Run suite' })).toBeDisabled()
    await user.click(screen.getByRole('button', { name: 'Add starter suite' }))
    expect(await screen.findByText('2 scenarios added')).toBeInTheDocument()
    const rows = await screen.findAllByTestId('scenario-row')
    expect(rows.map((r) => r.textContent)).toEqual(['Happy pathperson0 expectations Run', 'Voicemailvoicemail1 expectation Run'])
    expect(within(screen.getByTestId('suite-main')).getByRole('heading')).toHaveTextContent('main (2)')
  })

  it('writes a scenario in the form, carries it to the JSON view and back, and saves it', async () => {
    const store: ReturnType<typeof makeScenario>[] = []
    server.use(...labHandlers(store))
    const user = userEvent.setup()
    renderApp('/dashboard/agents/a1/tests')
    await user.click(await screen.findByRole('button', { name: 'New scenario' }))
    const dialog = await screen.findByRole('dialog', { name: 'New scenario' })
    await user.type(within(dialog).getByLabelText('Name'), 'Never hears the offer')
    await user.type(within(dialog).getByLabelText('Line 1'), 'Yes, who is this?')
    await user.click(within(dialog).getByRole('button', { name: 'Add line' }))
    await user.type(within(dialog).getByLabelText('Line 2'), 'Goodbye.')
    await user.click(within(dialog).getByRole('button', { name: 'Move line 2 up' }))
    expect(within(dialog).getByLabelText('Line 1')).toHaveValue('Goodbye.')
    await user.click(within(dialog).getByRole('button', { name: 'Add phrase said' }))
    await user.type(within(dialog).getByLabelText('Phrase said 1'), 'our Friday special')
    await user.type(within(dialog).getByLabelText('Phrase said 1 within seconds'), '20')

    await user.click(within(dialog).getByRole('tab', { name: 'JSON' }))
    const json = within(dialog).getByLabelText('The scenario as JSON')
    const shown = JSON.parse((json as HTMLTextAreaElement).value)
    expect(shown).toMatchObject({ name: 'Never hears the offer', suite: 'main', callee: { kind: 'person', lines: ['Goodbye.', 'Yes, who is this?'] }, expect: { says: [{ phrase: 'our Friday special', within_seconds: 20 }] } })
    // An edit in the JSON carries to the form; broken JSON says where and keeps the form shut.
    await user.clear(json)
    await user.click(json)
    await user.paste(JSON.stringify({ ...shown, expect: { ...shown.expect, outcome: 'completed' } }, null, 2).replace('"completed"\n', '"completed",\n'))
    expect(within(dialog).getByTestId('scenario-json-problems')).toHaveTextContent(/The JSON is not valid at line \d+, column \d+/)
    expect(within(dialog).getByRole('tab', { name: 'Form' })).toBeDisabled()
    await user.clear(json)
    await user.click(json)
    await user.paste(JSON.stringify({ ...shown, expect: { ...shown.expect, outcome: 'completed' } }))
    await user.click(within(dialog).getByRole('tab', { name: 'Form' }))
    expect(within(dialog).getByLabelText('Outcome')).toHaveValue('completed')
    expect(within(dialog).getByLabelText('Phrase said 1')).toHaveValue('our Friday special')

    await user.click(within(dialog).getByRole('button', { name: 'Save scenario' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(calls.find((c) => c.method === 'POST' && c.path === 'agents/a1/lab/scenarios')?.body).toEqual({
      name: 'Never hears the offer',
      suite: 'main',
      callee: { kind: 'person', hello: 'Hello?', lines: ['Goodbye.', 'Yes, who is this?'], pauses: 0, thinking: 0.3, ring_seconds: 2 },
      expect: { outcome: 'completed', says: [{ phrase: 'our Friday special', within_seconds: 20 }] },
      variables: {},
    })
    expect(await screen.findByText('Scenario added')).toBeInTheDocument()
  })

  it("checks the form before it sends it, and shows the server's refusal at its field", async () => {
    const store = [makeScenario({ id: 's1', name: 'Happy path' })]
    server.use(...labHandlers(store))
    const user = userEvent.setup()
    renderApp('/dashboard/agents/a1/tests')
    await user.click(await screen.findByRole('button', { name: 'Happy path' }))
    const dialog = await screen.findByRole('dialog', { name: 'Scenario: Happy path' })
    await user.clear(within(dialog).getByLabelText('Name'))
    await user.clear(within(dialog).getByLabelText('Thinking (s)'))
    await user.type(within(dialog).getByLabelText('Thinking (s)'), '11')
    await user.click(within(dialog).getByRole('button', { name: 'Save scenario' }))
    expect(within(dialog).getByText('The name cannot be empty.')).toBeInTheDocument()
    expect(within(dialog).getByText('Thinking must be a number from 0 to 10.')).toBeInTheDocument()
    expect(within(dialog).getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true')
    expect(calls.some((c) => c.method === 'PUT')).toBe(false)

    server.use(http.put(url('lab/scenarios/s1'), () => HttpResponse.json({ success: false, message: 'The given data was invalid.', errors: { 'callee.lines.1': ['String should have at most 500 characters.'] } }, { status: 422 })))
    await user.type(within(dialog).getByLabelText('Name'), 'Happy path')
    await user.clear(within(dialog).getByLabelText('Thinking (s)'))
    await user.click(within(dialog).getByRole('button', { name: 'Save scenario' }))
    expect(await within(dialog).findByText('String should have at most 500 characters.')).toBeInTheDocument()
    expect(within(dialog).getByLabelText('Line 2')).toHaveAttribute('aria-invalid', 'true')
  })

  it('deletes a scenario once confirmed, and shows a refused run as the server says it', async () => {
    const store = [makeScenario({ id: 's1', name: 'Happy path' }), makeScenario({ id: 's2', name: 'Voicemail' })]
    server.use(...labHandlers(store), http.post(url('agents/a1/lab/runs'), () => HttpResponse.json({ success: false, message: 'The given data was invalid.', errors: { scenarios: ['The lab places at most 200 calls a day: 1 left today.'] } }, { status: 422 })))
    const user = userEvent.setup()
    renderApp('/dashboard/agents/a1/tests')
    await user.click(await screen.findByRole('button', { name: 'Delete Voicemail' }))
    const confirm = await screen.findByRole('dialog', { name: 'Delete scenario' })
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(screen.getAllByTestId('scenario-row')).toHaveLength(1))
    expect(calls.some((c) => c.method === 'DELETE' && c.path === 'lab/scenarios/s2')).toBe(true)
    await user.click(screen.getByRole('button', { name: 'Run suite' }))
    expect(await screen.findByText('The lab places at most 200 calls a day: 1 left today.', { selector: '[role=alert]' })).toBeInTheDocument()
  })

  it("runs one scenario, shows the run's progress while it runs, and its results once it is over", async () => {
    const store = [makeScenario({ id: 's1', name: 'Happy path' })]
    const results = [makeResult({ id: 'r1', status: 'passed', scenario: { name: 'Happy path', callee: {} } }), makeResult({ id: 'r2', status: 'failed', scenario: { name: 'Declines', callee: {} } }), makeResult({ id: 'r3', status: 'calling', scenario: { name: 'Voicemail', callee: {} } }), makeResult({ id: 'r4', status: 'queued', scenario: { name: 'Opt-out', callee: {} } })]
    const runs = [makeRun({ id: 'run1', status: 'running', results })]
    server.use(...labHandlers(store, runs), http.post(url('agents/a1/lab/runs'), () => HttpResponse.json({ success: true, message: 'The run has started', data: runs[0] }, { status: 201 })))
    const user = userEvent.setup()
    const { router } = renderApp('/dashboard/agents/a1/tests')
    await user.click(await screen.findByRole('button', { name: 'Run Happy path' }))
    await waitFor(() => expect(router.state.location.search).toBe('?run=run1'))
    expect(calls.find((c) => c.method === 'POST' && c.path === 'agents/a1/lab/runs')?.body).toEqual({ scenario_ids: ['s1'] })
    const bar = await screen.findByRole('progressbar', { name: 'Run progress' })
    expect(bar).toHaveAttribute('aria-valuetext', '2 of 4 done')
    expect(screen.getByTestId('run-status')).toHaveTextContent('Running')
    expect(screen.getAllByTestId('result-row').map((r) => within(r).getByText(/Queued|Calling|Passed|Failed/).textContent)).toEqual(['Passed', 'Failed', 'Calling', 'Queued'])

    // The next read (a second later) finds it over.
    runs[0] = makeRun({ id: 'run1', status: 'failed', finished_at: '2026-11-20T10:02:00Z', results: results.map((r) => (r.status === 'calling' || r.status === 'queued' ? { ...r, status: 'passed' as const } : r)) })
    await waitFor(() => expect(screen.getByTestId('run-status')).toHaveTextContent('Failed'), { timeout: 5000 })
    expect(screen.getByTestId('run-progress-text')).toHaveTextContent('4 of 4 done')
  })

  it("serves a flow's own suite on the flow's Tests tab, from the flow's paths, and says why a flow never published cannot run", async () => {
    server.use(
      ...flowHandlers([makeFlow({ id: 'f1', name: 'Appointments' })]),
      http.get(url('flows/f1/lab/scenarios'), () => HttpResponse.json({ success: true, data: [makeScenario({ id: 's1', name: 'Branch: confirms', agent_id: null, flow_id: 'f1', suite: 'branches' })] })),
      http.get(url('flows/f1/lab/runs'), () => HttpResponse.json({ success: true, data: [], pagination: { current_page: 1, last_page: 1, per_page: 10, total: 0 } })),
      http.post(url('flows/f1/lab/runs'), () => HttpResponse.json({ success: false, message: 'The given data was invalid.', errors: { flow_id: ['The flow has no published version to call: publish it first.'] } }, { status: 422 })),
    )
    const user = userEvent.setup()
    renderApp('/dashboard/flows/f1/tests')
    expect(await screen.findByRole('heading', { name: 'Appointments' })).toBeInTheDocument()
    expect(within(screen.getByRole('navigation', { name: 'Flow' })).getByRole('link', { name: 'Editor' })).toHaveAttribute('href', '/dashboard/flows/f1')
    expect(await screen.findByTestId('suite-branches')).toHaveTextContent('Branch: confirms')
    await user.click(screen.getByRole('button', { name: 'Run suite branches' }))
    expect(await screen.findByText('The flow has no published version to call: publish it first.', { selector: '[role=alert]' })).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'POST' && c.path === 'flows/f1/lab/runs')?.body).toEqual({ suite: 'branches' })
  })
})
