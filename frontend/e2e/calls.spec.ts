import { expect, test, type Page } from '@playwright/test'
import { DEMO, openFromSidebar, signIn } from './helpers'

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']

function dollars(text: string | null): number {
  return Number((text ?? '').replace(/[^0-9.]/g, ''))
}

interface CallsPage {
  data: { call_id: string; status: string; corrected_duration: number; created_at: string }[]
}

async function apiGet(page: Page, path: string): Promise<CallsPage> {
  return page.evaluate(async (p) => {
    const response = await fetch(`/api/v1/${p}`, { headers: { Authorization: `Bearer ${localStorage.getItem('api_token')}` } })
    return (await response.json()) as CallsPage
  }, path)
}

test('the demo user sends a sandbox call, watches it live, hears it in Call Logs and sees it billed and counted', async ({ page }) => {
  test.setTimeout(240_000)
  await signIn(page, DEMO.email, DEMO.password)
  await expect(page).toHaveURL(/\/dashboard$/)
  const userId = await page.evaluate(() => Number(localStorage.getItem('userId')))

  await openFromSidebar(page, 'Send Call')
  await expect(page).toHaveURL(/\/dashboard\/send-call$/)
  const balance = page.getByTestId('send-balance')
  await expect(balance).toBeVisible()
  const before = dollars(await balance.textContent())

  // Client-side validation first: what is no whole number (no area code) is refused with the
  // spec's message, beside the field as well as in the toast.
  await page.getByLabel('What should the agent do?').fill('You are Sarah from Bright Dental. Remind the customer about their cleaning tomorrow at 3 pm and ask if the time still works.')
  await page.getByLabel('Phone number').fill('555-0100')
  await page.getByRole('button', { name: 'Send Call' }).click()
  await expect(page.locator('#phone-error')).toHaveText('Phone number must start with "+" followed by 10-15 digits (e.g., +15551234567)')

  await page.getByLabel('Phone number').fill('+15551230000')
  const maxDuration = page.getByLabel('Max duration')
  await maxDuration.focus()
  await page.keyboard.press('Home')
  await page.keyboard.press('ArrowRight') // 2 minutes
  await expect(page.getByText('2 min', { exact: true })).toBeVisible()
  await page.getByRole('button', { name: 'Send Call' }).click()
  await expect(page.getByText('Balance sufficient: $' + (before - 0.98).toFixed(2) + ' available.')).toBeVisible()
  await expect(page.getByRole('button', { name: /^(Calling\.\.\.|On call)$/ })).toBeDisabled()
  await expect(page.getByRole('button', { name: 'Stop Call' })).toBeEnabled()

  // Live: "Call connected" starts the timer, then lines from both sides arrive.
  const transcript = page.getByTestId('live-transcript')
  await expect(transcript.locator('[data-speaker="agent"]').first()).toBeVisible({ timeout: 60_000 })
  await expect(transcript.locator('[data-speaker="user"]').first()).toBeVisible({ timeout: 60_000 })
  await expect(page.getByRole('button', { name: 'On call' })).toBeDisabled()
  await page.screenshot({ path: 'test-results/send-call.png', fullPage: true })
  await expect(page.getByText('The call has completed. You can now start a new call.')).toBeVisible({ timeout: 150_000 })
  await expect(page.getByRole('button', { name: 'Send Call' })).toBeVisible()

  // Billed to the cent: rounded-up minutes of (duration - 1 s) x $0.49.
  const calls = await apiGet(page, `user/${userId}/calls?per_page=1`)
  const call = calls.data[0]
  expect(call.status).toBe('completed')
  const seconds = call.corrected_duration as number
  expect(seconds).toBeGreaterThan(5)
  const cost = Math.ceil((seconds - 1) / 60) * 0.49
  await expect(balance).toHaveText('$' + (before - cost).toFixed(2))

  // Call Logs lists it; the recording plays; the transcript has both speakers; a report is accepted.
  await page.getByRole('link', { name: 'Call Logs' }).click()
  const row = page.getByTestId('calls-table').getByRole('row').filter({ hasText: '+15551230000' }).first()
  await expect(row).toBeVisible()
  await expect(row.getByText('completed')).toBeVisible()
  await expect(row.getByText('$' + cost.toFixed(2))).toBeVisible()
  await row.getByRole('button', { name: 'Play recording' }).click()
  const player = page.getByTestId(`player-${call.call_id}`)
  await expect(player).toBeVisible()
  await expect.poll(() => player.evaluate((a) => (a as HTMLAudioElement).duration), { timeout: 15_000 }).toBeGreaterThan(seconds - 3)
  await page.screenshot({ path: 'test-results/call-logs.png', fullPage: true })
  await row.getByRole('button', { name: 'View transcript' }).click()
  const modal = page.getByRole('dialog', { name: 'Call Transcript' })
  await expect(modal.getByText('Agent', { exact: false }).first()).toBeVisible()
  await expect(modal.getByText(/^User ·/).first()).toBeVisible()
  await page.screenshot({ path: 'test-results/transcript.png' })
  await modal.getByRole('button', { name: 'Close' }).click()
  await expect(modal).toBeHidden()
  await row.getByRole('button', { name: 'Report call' }).click()
  const report = page.getByRole('dialog', { name: 'Report Call' })
  await report.getByRole('button', { name: 'Report' }).click() // no reason yet: it says so
  await expect(report.getByRole('alert')).toHaveText('Please give a reason for reporting this call.')
  await report.getByLabel('Reason for Reporting').fill('The agent spoke too fast.')
  await report.getByRole('button', { name: 'Report' }).click()
  await expect(page.getByText('Call reported successfully')).toBeVisible()

  // Analysis counts it on today's weekday.
  await page.getByRole('link', { name: 'Analysis' }).click()
  await expect(page.getByText('Track Your Call Patterns')).toBeVisible()
  const today = WEEKDAYS[new Date(call.created_at).getDay()]
  const cell = page.getByTestId('chart-Total Calls by Day').getByRole('row', { name: today }).getByRole('cell')
  await expect.poll(async () => Number(await cell.textContent())).toBeGreaterThanOrEqual(1)
  await page.screenshot({ path: 'test-results/analysis.png', fullPage: true })

  // The dashboard home shows the call and the new balance.
  await page.getByRole('link', { name: 'Home' }).click()
  await expect(page.getByTestId('recent-calls').getByText('+15551230000').first()).toBeVisible()
  await expect(page.getByTestId('balance')).toHaveText('$' + (before - cost).toFixed(2))

  // On a phone, Call Logs shows cards instead of the table.
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/dashboard/call-logs')
  const card = page.getByTestId('calls-cards').getByRole('listitem').filter({ hasText: '+15551230000' }).first()
  await expect(card).toBeVisible()
  await expect(page.getByTestId('calls-table')).toHaveCount(0)
  await expect(card.getByRole('button', { name: 'Play recording' })).toBeEnabled()
  await page.screenshot({ path: 'test-results/call-logs-phone.png', fullPage: true })
  await page.goto('/dashboard/send-call')
  await expect(page.getByRole('button', { name: 'Send Call' })).toBeVisible()
  await page.screenshot({ path: 'test-results/send-call-phone.png', fullPage: true })
})
