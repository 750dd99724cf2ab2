import { expect, test, type Page } from '@playwright/test'
import { DEMO, earlierCallsOver, signIn } from './helpers'

/** Truthful outcomes (issue 16, part 2): a busy line says busy, a voicemail says voicemail and is
 * billed like any answered call (docs/calls-and-billing.md), a stopped call says stopped. */

const PROMPT = 'You are Sarah from Bright Dental. Remind the customer about their cleaning tomorrow at 3 pm and ask if the time still works.'

interface CallRecord {
  call_id: string
  to: string
  status: string
  outcome: string | null
  answered_by: string | null
  corrected_duration: number
  cost: number | null
}

async function lastCall(page: Page): Promise<CallRecord> {
  return page.evaluate(async () => {
    const userId = localStorage.getItem('userId')
    const response = await fetch(`/api/v1/user/${userId}/calls?per_page=1`, { headers: { Authorization: `Bearer ${localStorage.getItem('api_token')}` } })
    return ((await response.json()) as { data: CallRecord[] }).data[0] as CallRecord
  })
}

/** The summary of the analysis every finished call gets on its own (calls/post_call.py); null
 * until it is stored. */
async function analysisSummary(page: Page, callId: string): Promise<string | null> {
  return page.evaluate(async (id) => {
    const response = await fetch(`/api/v1/call-details/${id}`, { headers: { Authorization: `Bearer ${localStorage.getItem('api_token')}` } })
    return ((await response.json()) as { data: { analysis: { summary: string } | null } }).data.analysis?.summary ?? null
  }, callId)
}

/** Send a one-minute call to `number` from Send Call, once the user's earlier calls are over:
 * the specs share the demo user, and a call another spec left going holds the balance. */
async function sendCall(page: Page, number: string): Promise<void> {
  await earlierCallsOver(page)
  await page.goto('/dashboard/send-call')
  await page.getByLabel('What should the agent do?').fill(PROMPT)
  await page.getByLabel('Phone number').fill(number)
  const maxDuration = page.getByLabel('Max duration')
  await maxDuration.focus()
  await page.keyboard.press('Home') // 1 minute
  await page.getByRole('button', { name: 'Send Call' }).click()
  await expect(page.getByRole('button', { name: 'Stop Call' })).toBeEnabled()
}

/** The call's row in Call Logs, and its page (the transcript dialog). */
async function openInCallLogs(page: Page, number: string) {
  await page.goto('/dashboard/call-logs')
  const row = page.getByTestId('calls-table').getByRole('row').filter({ hasText: number }).first()
  await expect(row).toBeVisible()
  return row
}

test.beforeEach(async ({ page }) => {
  await signIn(page, DEMO.email, DEMO.password)
  await expect(page).toHaveURL(/\/dashboard$/)
})

test('a busy line says busy, live and in Call Logs', async ({ page }) => {
  test.setTimeout(90_000)
  await sendCall(page, '+15005550002')
  await expect(page.getByText('The line was busy. You can now start a new call.')).toBeVisible({ timeout: 30_000 })
  await expect(page.getByText('The call has completed. You can now start a new call.')).toHaveCount(0)
  const call = await lastCall(page)
  expect([call.status, call.outcome, call.answered_by, call.cost]).toEqual(['busy', 'busy', null, 0])

  const row = await openInCallLogs(page, '+15005550002')
  await expect(row.getByText('Busy', { exact: true })).toBeVisible()
  await row.getByRole('button', { name: 'View transcript' }).click()
  const dialog = page.getByRole('dialog', { name: 'Call Transcript' })
  await expect(dialog.getByTestId('call-outcome')).toHaveText('The line was busy')
  await expect(dialog.getByTestId('call-answered-by')).toHaveText('Not answered')
})

test('a voicemail says voicemail, labels its greeting, and is billed from answer to hang-up', async ({ page }) => {
  test.setTimeout(180_000)
  await expect(page.getByTestId('balance')).toHaveText(/^\$\d/)
  const before = Number(((await page.getByTestId('balance').textContent()) ?? '').replace(/[^0-9.]/g, ''))
  await sendCall(page, '+15005550004')
  await expect(page.getByText('Voicemail reached. You can now start a new call.')).toBeVisible({ timeout: 150_000 })
  const call = await lastCall(page)
  expect([call.status, call.outcome, call.answered_by]).toEqual(['completed', 'voicemail', 'voicemail'])
  // The rule in docs/calls-and-billing.md: connected time is billed, whoever answered.
  expect(call.corrected_duration).toBeGreaterThan(5)
  const cost = Math.ceil((call.corrected_duration - 1) / 60) * 0.49
  expect(call.cost).toBeCloseTo(cost, 2)
  await page.goto('/dashboard')
  await expect(page.getByTestId('balance')).toHaveText('$' + (before - cost).toFixed(2))

  // The post-call analysis runs by itself once the call is finalised.
  await expect.poll(() => analysisSummary(page, call.call_id), { timeout: 60_000 }).toContain('Outcome: voicemail')

  const row = await openInCallLogs(page, '+15005550004')
  await expect(row.getByText('Voicemail', { exact: true })).toBeVisible()
  await expect(row.getByText('$' + cost.toFixed(2))).toBeVisible()
  await row.getByRole('button', { name: 'View transcript' }).click()
  const dialog = page.getByRole('dialog', { name: 'Call Transcript' })
  await expect(dialog.getByTestId('call-outcome')).toHaveText('Voicemail reached')
  await expect(dialog.getByTestId('call-answered-by')).toHaveText('Voicemail')
  await expect(dialog.getByText(/^Voicemail ·/).first()).toBeVisible()
  await expect(dialog.getByText(/^User ·/)).toHaveCount(0)
  await expect(dialog.getByTestId('call-analysis-summary')).toContainText('Outcome: voicemail')
  await expect(dialog.getByRole('button', { name: 'Analyse call' })).toHaveCount(0)
  await page.screenshot({ path: 'test-results/outcome-voicemail.png' })
})

test('a call the user stops says stopped', async ({ page }) => {
  test.setTimeout(150_000)
  await sendCall(page, '+15551230000')
  await expect(page.getByTestId('live-transcript').locator('[data-speaker="agent"]').first()).toBeVisible({ timeout: 60_000 })
  await page.getByRole('button', { name: 'Stop Call' }).click()
  await expect(page.getByText('Call stopped successfully')).toBeVisible()
  await expect.poll(async () => (await lastCall(page)).outcome, { timeout: 60_000 }).toBe('stopped')

  const row = await openInCallLogs(page, '+15551230000')
  await expect(row.getByText('Stopped', { exact: true })).toBeVisible()
  await row.getByRole('button', { name: 'View transcript' }).click()
  const dialog = page.getByRole('dialog', { name: 'Call Transcript' })
  await expect(dialog.getByTestId('call-outcome')).toHaveText('You stopped the call')
  await expect(dialog.getByTestId('call-answered-by')).not.toHaveText('Not answered')
  await page.screenshot({ path: 'test-results/outcome-stopped.png' })
})
