/** A call on a conversation flow (issue 30, docs/flows.md): a flow made from the appointment
 * starter and published through the API, a Send Call on it to the sandbox's confirming callee,
 * the node changes marked live, and the path on the call page after. */
import { expect, test } from '@playwright/test'
import { api, DEMO, openFromSidebar, signIn } from './helpers'

test('a Send Call on a published flow marks its node changes live and shows its path after', async ({ page }) => {
  test.setTimeout(150_000)
  await signIn(page, DEMO.email, DEMO.password)
  await expect(page).toHaveURL(/\/dashboard$/)
  const made = await api<{ data: { id: string } }>(page, 'POST', 'flows', { name: 'Cleaning confirmations', starter: 'appointment' })
  const published = await api<{ data: { published_version: number } }>(page, 'POST', `flows/${made.data.id}/publish`)
  expect(published.data.published_version).toBe(1)

  await openFromSidebar(page, 'Send Call')
  await expect(page.getByTestId('send-balance')).toBeVisible()
  await page.getByLabel('Conversation flow').selectOption(made.data.id)
  await expect(page.getByTestId('flow-picked')).toContainText('Calls run published version 1')
  await expect(page.getByLabel('Start at')).toContainText("The flow's start: Greeting")
  // The flow's variables given by the call are asked for.
  await page.getByLabel('{{customer_name}}').fill('Ann')
  await page.getByLabel('{{business_name}}').fill('Bright Dental')
  await page.getByLabel('{{appointment_time}}').fill('Tuesday at 3 pm')
  await page.getByLabel('Phone number').fill('+15005550050') // the sandbox's callee who confirms
  const maxDuration = page.getByLabel('Max duration')
  await maxDuration.focus()
  await page.keyboard.press('Home')
  await page.keyboard.press('ArrowRight') // 2 minutes
  await page.getByRole('button', { name: 'Send Call' }).click()

  const transcript = page.getByTestId('live-transcript')
  const confirmed = transcript.getByTestId('flow-step').filter({ hasText: "-> Confirm the appointment (answer 'Yes'" })
  await expect(confirmed).toBeVisible({ timeout: 90_000 })
  await expect(transcript.locator('[data-speaker="agent"]').first()).toContainText('Hi Ann')
  await page.screenshot({ path: 'test-results/flow-calls-live.png', fullPage: true })

  await page.getByTestId('finished-call-link').click({ timeout: 60_000 })
  const path = page.getByTestId('flow-path')
  await expect(path).toBeVisible()
  await expect(path.getByTestId('flow-path-step').first()).toContainText('Greeting')
  await expect(path.getByTestId('flow-path-step').filter({ hasText: 'Confirm the appointment' })).toContainText("Took \"Yes\"")
  await expect(path.getByTestId('flow-graph').locator('.react-flow__node.flow-visited')).not.toHaveCount(0)
  await expect(page.getByTestId('synced-transcript').getByTestId('flow-step').first()).toBeVisible()
  await path.scrollIntoViewIfNeeded()
  await page.screenshot({ path: 'test-results/flow-calls-page.png', fullPage: true })
})
