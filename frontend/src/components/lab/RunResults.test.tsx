import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { saveSession } from '@/lib/session'
import * as toast from '@/lib/toast'
import { agentHandlers, makeAgent } from '@/testing/agents'
import { failedCheck, labHandlers, makeResult, makeRun, makeScenario, passedCheck } from '@/testing/lab'
import { calls, server, url } from '@/testing/msw'
import { renderApp } from '@/testing/render'

const agents = [makeAgent({ id: 'a1', name: 'Reminders', prompt: 'Confirm the cleaning appointment.' })]

beforeEach(() => {
  saveSession('1|x', { id: 1, name: 'Grace', email: 'g@example.com', role: 'user' })
  server.use(...agentHandlers(agents), http.get(url('agents/a1/tools'), () => HttpResponse.json({ success: true, data: [] })), http.get(url('voices'), () => HttpResponse.json({ voices: [{ name: 'joe', description: '', engine: 'piper', gender: 'male', recording_url: '/v.mp3' }] })))
})

const CALL = {
  call_id: 'c1',
  outcome: 'completed',
  duration_seconds: 12.4,
  lines: [
    { speaker: 'agent', text: "Hi, I'm an AI assistant from Bright Dental.", at: 0.4 },
    { speaker: 'callee', text: 'Yes?', at: 3.1 },
    { speaker: 'agent', text: 'Thanks for your time, goodbye.', at: 6.5 },
  ],
  actions: [],
  steps: [],
  reply_seconds: [1.2],
  values: {},
  recording_url: '/api/v1/lab/results/r2/recording',
}

describe("a run's results", () => {
  it('opens a failed result on its failed check first, with the evidence, and the call with that line marked and its recording', async () => {
    const results = [makeResult({ id: 'r1', status: 'passed', scenario: { name: 'Happy path', callee: {} }, checks: [passedCheck], call_id: 'c0' }), makeResult({ id: 'r2', status: 'failed', scenario: { name: 'Never hears the offer', callee: {} }, checks: [passedCheck, failedCheck], call_id: 'c1' })]
    server.use(...labHandlers([], [makeRun({ id: 'run1', status: 'failed', results })]), http.get(url('lab/results/r2/call'), () => HttpResponse.json({ success: true, data: CALL })))
    const user = userEvent.setup()
    renderApp('/dashboard/agents/a1/tests?run=run1')
    const row = (await screen.findAllByTestId('result-row'))[1] as HTMLElement
    expect(row).toHaveTextContent('1 of 2 checks failed')
    await user.click(within(row).getByRole('button', { expanded: false }))
    const detail = within(row).getByTestId('result-detail')
    const checks = within(detail).getAllByTestId('check')
    expect(checks.map((c) => c.dataset.passed)).toEqual(['false', 'true'])
    expect(checks[0]).toHaveTextContent('says[0]failedExpectedsays "our Friday special"Foundnever saidlineat 6.5 sThanks for your time, goodbye.')
    const transcript = await within(detail).findByTestId('result-transcript')
    const lines = within(transcript).getAllByRole('listitem')
    expect(lines.map((l) => l.dataset.evidence ?? null)).toEqual([null, null, 'true'])
    expect(lines[2]).toHaveClass('bg-rose-100')
    expect(within(detail).getByLabelText('Recording of the call')).toHaveAttribute('src', '/api/v1/lab/results/r2/recording')
  })

  it('compares a run with the one before it: the settings that changed and each check that changed', async () => {
    const before = makeRun({ id: 'run1', status: 'passed', created_at: '2026-11-20T09:00:00Z', results: [makeResult({ id: 'r1', status: 'passed', checks: [{ ...failedCheck, passed: true, found: 'said at 4.0 s' }] })] })
    const after = makeRun({ id: 'run2', status: 'failed', created_at: '2026-11-20T10:00:00Z', results: [makeResult({ id: 'r2', status: 'failed', checks: [failedCheck] })] })
    const longBefore = 'You are Sarah from Bright Dental. Offer the Friday special before confirming the cleaning appointment.'
    server.use(
      ...labHandlers([], [after, before]),
      http.get(url('lab/results/r2/call'), () => HttpResponse.json({ success: true, data: CALL })),
      http.get(url('lab/results/r1/call'), () => HttpResponse.json({ success: true, data: { ...CALL, call_id: 'c0', lines: [...CALL.lines.slice(0, 2), { speaker: 'agent', text: 'Our Friday special is a free whitening.', at: 4 }] } })),
      http.get(url('lab/runs/run1/compare/run2'), () =>
        HttpResponse.json({
          success: true,
          data: {
            before: { ...before, results: undefined },
            after: { ...after, results: undefined },
            settings_changed: { temperature: [0.7, 0.2], prompt: [longBefore, 'You are Sarah from Bright Dental. Confirm the cleaning appointment.'] },
            changed: [{ scenario: 'Never hears the offer', expectation: 'says[0]', before: { ...failedCheck, passed: true, found: 'said at 4.0 s' }, after: failedCheck, before_result_id: 'r1', after_result_id: 'r2' }],
            only_before: [],
            only_after: ['Opt-out'],
          },
        }),
      ),
    )
    const user = userEvent.setup()
    renderApp('/dashboard/agents/a1/tests?run=run2')
    await user.click(await screen.findByRole('button', { name: 'Compare with previous' }))
    const view = await screen.findByRole('region', { name: 'Compare runs' })
    const settings = await within(view).findAllByTestId('setting-change')
    expect(settings[0]).toHaveTextContent('temperature0.70.2')
    expect(within(settings[1] as HTMLElement).getByText('Before').parentElement).toHaveTextContent(longBefore)
    const change = within(view).getByTestId('check-change')
    expect(change).toHaveTextContent('Never hears the offer · says[0]')
    const [was, now] = within(change).getAllByTestId('check')
    expect(was).toHaveAttribute('data-passed', 'true')
    expect(was).toHaveTextContent('Foundsaid at 4.0 s')
    expect(now).toHaveAttribute('data-passed', 'false')
    expect(within(now as HTMLElement).getByTestId('evidence')).toHaveTextContent('Thanks for your time, goodbye.')
    expect(view).toHaveTextContent('Only in the later run: Opt-out')
    // Both calls side by side, each with the line its check read marked.
    await user.click(within(change).getByRole('button', { name: 'Show both calls' }))
    const afterCall = await within(change).findByTestId('after-call')
    expect((await within(afterCall).findByText('Thanks for your time, goodbye.')).closest('li')).toHaveAttribute('data-evidence', 'true')
    expect(await within(within(change).getByTestId('before-call')).findByText('Our Friday special is a free whitening.')).toBeInTheDocument()
  })

  it('lists the runs, newest first, with their counts, source and versions, and opens one', async () => {
    const runs = [
      { ...makeRun({ id: 'run2', status: 'failed', source: 'cli', flow_version: 4, results: [makeResult({ id: 'r2', status: 'failed' })] }), agent_version: 3 },
      makeRun({ id: 'run1', status: 'passed', results: [makeResult({ id: 'r1', status: 'passed' })] }),
    ]
    server.use(...labHandlers([], runs))
    const user = userEvent.setup()
    const { router } = renderApp('/dashboard/agents/a1/tests')
    const rows = await screen.findAllByTestId('run-row')
    expect(rows[0]).toHaveTextContent('Failed0 passed, 1 failed of 1')
    expect(rows[0]).toHaveTextContent('cliagent v3, flow v4')
    expect(rows[1]).toHaveTextContent('Passed1 passed, 0 failed of 1')
    await user.click(within(rows[1] as HTMLElement).getByRole('button', { name: /Open the run/ }))
    await waitFor(() => expect(router.state.location.search).toBe('?run=run1'))
    expect(await screen.findByTestId('run-status')).toHaveTextContent('Passed')
  })
})

describe('saving an agent', () => {
  it('offers to run its suite, and the offer starts a run and opens the Tests tab on it', async () => {
    const offer = vi.spyOn(toast, 'offer')
    const run = makeRun({ id: 'run9', status: 'running', results: [makeResult({ id: 'r1', status: 'queued' })] })
    server.use(...labHandlers([makeScenario({ id: 's1', name: 'Happy path' }), makeScenario({ id: 's2', name: 'Voicemail' })], [run]), http.post(url('agents/a1/lab/runs'), () => HttpResponse.json({ success: true, message: 'The run has started', data: run }, { status: 201 })))
    const user = userEvent.setup()
    const { router } = renderApp('/dashboard/agents/a1')
    await user.click(await screen.findByRole('button', { name: 'Save agent' }))
    await waitFor(() => expect(offer).toHaveBeenCalled())
    const [message, label, start] = offer.mock.calls[0] as [string, string, () => void]
    expect([message, label]).toEqual(['Its suite has 2 scenarios: run them against the saved settings?', 'Run its 2 tests'])
    start()
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/dashboard/agents/a1/tests?run=run9'))
    expect(calls.find((c) => c.method === 'POST' && c.path === 'agents/a1/lab/runs')?.body).toEqual({})
    offer.mockRestore()
  })

  it('offers nothing when the suite is empty', async () => {
    const offer = vi.spyOn(toast, 'offer')
    server.use(...labHandlers([]))
    const user = userEvent.setup()
    const { router } = renderApp('/dashboard/agents/a1')
    await user.click(await screen.findByRole('button', { name: 'Save agent' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/agents'))
    await waitFor(() => expect(calls.some((c) => c.path === 'agents/a1/lab/scenarios')).toBe(true))
    expect(offer).not.toHaveBeenCalled()
    offer.mockRestore()
  })
})
