import { expect, test } from '@playwright/test'
import { ADMIN, DEMO, signIn, signOut } from './helpers'

/** "m:ss" as seconds. */
function seconds(position: string): number {
  const [m, s] = position.split(':').map(Number)
  return (m ?? 0) * 60 + (s ?? 0)
}

test('a finished sandbox call opens on its own page from Call Logs: it plays, a transcript line seeks, the analysis shows', async ({ page }) => {
  test.setTimeout(420_000)
  await signIn(page, DEMO.email, DEMO.password)
  await expect(page).toHaveURL(/\/dashboard$/)

  await page.getByRole('link', { name: 'Send Call' }).click()
  await page.getByLabel('What should the agent do?').fill('You are Sarah from Bright Dental. Remind the customer about their cleaning tomorrow at 3 pm and ask if the time still works.')
  await page.getByLabel('Phone number').fill('+15551230000')
  const maxDuration = page.getByLabel('Max duration')
  await maxDuration.focus()
  await page.keyboard.press('Home')
  await page.keyboard.press('ArrowRight') // 2 minutes
  await page.getByRole('button', { name: 'Send Call' }).click()
  // The persona may hang up first on a slow machine: any end will do.
  await expect(page.getByText(/You can now start a new call\./)).toBeVisible({ timeout: 180_000 })
  const last = await page.evaluate(async () => {
    const id = localStorage.getItem('userId')
    const response = await fetch(`/api/v1/user/${id}/calls?per_page=1`, { headers: { Authorization: `Bearer ${localStorage.getItem('api_token')}` } })
    return ((await response.json()) as { data: { call_id: string; outcome: string }[] }).data[0]
  })
  expect(last?.outcome).toBeTruthy()

  // Call Logs: narrowed to this call's outcome and number, the row opens the call's page.
  await page.getByRole('link', { name: 'Call Logs' }).click()
  await page.getByRole('combobox', { name: 'Outcome' }).selectOption(last?.outcome ?? '')
  await page.getByRole('searchbox', { name: 'Search by phone number' }).fill('555 123 0000')
  const row = page.getByTestId('calls-table').getByRole('row').filter({ hasText: '+15551230000' }).first()
  await expect(row).toBeVisible()
  await row.getByRole('link', { name: 'Open call page' }).click()
  await expect(page).toHaveURL(`/dashboard/calls/${last?.call_id}`)
  await expect(page.getByRole('heading', { name: 'Call to +15551230000' })).toBeVisible()
  await expect(page.getByTestId('call-outcome')).not.toHaveText('The call is still in progress')

  // The analysis runs on its own once the call has ended; the page picks it up.
  await expect(page.getByTestId('call-analysis-summary')).not.toBeEmpty({ timeout: 60_000 })
  await expect(page.getByTestId('call-analysis-outcome')).not.toBeEmpty()
  await expect(page.getByTestId('call-cost-explanation')).toContainText('x $0.49')

  // The waveform is drawn from the recording; play it.
  await expect(page.getByText('Drawing the waveform…')).toHaveCount(0, { timeout: 30_000 })
  await expect(page.getByText(/The waveform could not be drawn/)).toHaveCount(0)
  const audio = page.getByTestId('call-audio')
  await page.getByRole('button', { name: 'Play recording' }).click()
  await expect.poll(() => audio.evaluate((a) => (a as HTMLAudioElement).currentTime), { timeout: 15_000 }).toBeGreaterThan(0.3)
  await expect(page.getByRole('button', { name: 'Pause recording' })).toBeVisible()

  // Click a later line: the audio jumps to where it begins and the line is highlighted.
  const lines = page.getByTestId('synced-transcript').getByRole('button')
  const count = await lines.count()
  expect(count).toBeGreaterThan(1)
  const target = lines.nth(count - 1)
  const label = (await target.getAttribute('aria-label')) ?? ''
  const at = seconds(/ at (\d+:\d\d):/.exec(label)?.[1] ?? '0:00')
  const before = await audio.evaluate((a) => (a as HTMLAudioElement).currentTime)
  await target.click()
  const after = await audio.evaluate((a) => (a as HTMLAudioElement).currentTime)
  expect(Math.abs(after - before)).toBeGreaterThan(0.2)
  expect(after).toBeGreaterThanOrEqual(at)
  expect(after).toBeLessThan(at + 2)
  await expect(target).toHaveAttribute('aria-current', 'true')
  // (The last line may play to the end by now: pause whatever is left.)
  await audio.evaluate((a) => (a as HTMLAudioElement).pause())

  await page.screenshot({ path: 'test-results/call-page.png', fullPage: true })

  // The admin opens the same call from the admin Call Logs, with who placed it.
  await signOut(page)
  await signIn(page, ADMIN.email, ADMIN.password)
  await expect(page).toHaveURL(/\/admin$/)
  await page.getByRole('link', { name: 'Call Logs' }).click()
  const adminRow = page.getByTestId('admin-calls').getByRole('row').filter({ hasText: DEMO.email }).first()
  await adminRow.getByRole('link', { name: 'Open call page' }).click()
  await expect(page).toHaveURL(`/admin/calls/${last?.call_id}`)
  await expect(page.getByText(`(${DEMO.email})`)).toBeVisible()
  await expect(page.getByTestId('call-analysis-summary')).not.toBeEmpty()
  await page.screenshot({ path: 'test-results/admin-call-page.png' })
})
