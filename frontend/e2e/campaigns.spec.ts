import { readFile } from 'node:fs/promises'
import { expect, test } from '@playwright/test'
import { DEMO, signIn } from './helpers'

const CSV = ['Name,Phone', 'Ann,+15005550104', 'Bob,+15005550101', 'Cy,+15005550004', 'Di,+15005550109', 'Ed,12345'].join('\n') + '\n'

test('a campaign: upload a CSV, read the report, schedule, start, watch the counters, pause, resume, export', async ({ page }, info) => {
  test.setTimeout(240_000)
  await signIn(page, DEMO.email, DEMO.password)
  await expect(page).toHaveURL(/\/dashboard$/)

  // An agent to call with.
  await page.goto('/dashboard/agents/new')
  await page.getByLabel('Name', { exact: true }).fill('Campaign reminder')
  await page.getByLabel('Prompt').fill('You are Sarah from Bright Dental. Remind {{name}} about the cleaning tomorrow at 3 pm and ask if the time still works.')
  // One minute at most: each call holds one minute's price while it lasts.
  await page.getByLabel('Max duration').focus()
  await page.keyboard.press('Home')
  await page.getByRole('button', { name: 'Create agent' }).click()
  await expect(page).toHaveURL(/\/dashboard\/agents$/)

  await page.getByRole('link', { name: 'Campaigns' }).click()
  await page.getByRole('link', { name: 'New campaign' }).first().click()
  await page.getByLabel('Campaign name').fill('E2E cleanings')
  await page.getByLabel('Agent', { exact: true }).selectOption({ label: 'Campaign reminder ({{name}})' })
  await page.getByRole('button', { name: 'Continue' }).click()

  await page.getByTestId('contacts-file').setInputFiles({ name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) })
  const report = page.getByTestId('load-report')
  await expect(report).toContainText('4 contacts accepted, 1 refused.')
  await expect(report.getByTestId('load-refused')).toContainText('Not a valid phone number.')
  await page.screenshot({ path: info.outputPath('campaign-report.png'), fullPage: true })
  await page.getByRole('button', { name: 'Continue' }).click()

  // Every day, all day (the e2e server's legal hours are the whole day too).
  await page.getByText('Sat', { exact: true }).click()
  await page.getByText('Sun', { exact: true }).click()
  await page.getByLabel("Calls from (callee's local time)").fill('00:00')
  await page.getByLabel('Until').fill('00:00')
  await page.getByRole('button', { name: 'Update preview' }).click()
  await expect(page.getByTestId('zone-preview')).toContainText('America/New_York')
  await expect(page.getByTestId('zone-preview')).toContainText('4 contacts · open now')
  await page.getByRole('button', { name: 'Continue' }).click()

  await page.getByLabel('Calls at once').fill('2')
  await page.getByRole('button', { name: 'Continue' }).click()
  const review = page.getByTestId('campaign-review')
  await expect(review).toContainText('E2E cleanings')
  await expect(review).toContainText('2 at once')
  await expect(page.getByTestId('max-cost')).toHaveText(/^\$\d+\.\d\d$/)
  await page.screenshot({ path: info.outputPath('campaign-review.png'), fullPage: true })
  await page.getByRole('button', { name: 'Start campaign' }).click()

  await expect(page).toHaveURL(/\/dashboard\/campaigns\/[0-9a-f-]{36}$/)
  await expect(page.getByTestId('campaign-state')).toHaveText(/Scheduled|Running/)
  // The counters move as calls start and end (the socket's campaign-updated).
  await expect(page.getByTestId('count-calling')).not.toHaveText('0', { timeout: 30_000 })
  await page.getByRole('button', { name: 'Pause' }).click()
  await expect(page.getByText('Campaign paused: calls in progress will finish.')).toBeVisible()
  await expect(page.getByTestId('campaign-state')).toHaveText('Paused')
  await page.getByRole('button', { name: 'Resume' }).click()
  await expect(page.getByTestId('campaign-state')).toHaveText(/Scheduled|Running/)
  await expect(page.getByTestId('campaign-state')).toHaveText('Completed', { timeout: 150_000 })
  await expect(page.getByTestId('count-done')).toHaveText('4')
  await expect(page.getByTestId('campaign-outcomes')).toContainText('Voicemail: 1')
  await page.screenshot({ path: info.outputPath('campaign-done.png'), fullPage: true })

  await page.getByLabel('Filter by outcome').selectOption({ label: 'Voicemail' })
  await expect(page.getByTestId('contact-row')).toHaveCount(1)
  await expect(page.getByTestId('contact-row')).toContainText('+15005550004')

  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export CSV' }).click()
  const csv = await readFile((await (await download).path())!, 'utf-8')
  const [header, ...rows] = csv.trim().split('\n')
  expect(header.trim()).toBe('row,phone_number,status,outcome,attempts,last_call_id,next_attempt_at,note,name,disposition')
  expect(rows).toHaveLength(4)
  expect(rows.find((r) => r.includes('+15005550004'))).toMatch(/^4,\+15005550004,done,voicemail,1,[0-9a-f-]{36},,,Cy,/)
})
