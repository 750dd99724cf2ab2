import { expect, test } from '@playwright/test'
import { DEMO, openFromSidebar, signIn } from './helpers'

const NUMBER = '+15551230042'

test('an agent with a {{name}} variable is saved, a call starts from it with the value filled in, and shows in Call Logs', async ({ page }) => {
  test.setTimeout(150_000)
  await signIn(page, DEMO.email, DEMO.password)
  await expect(page).toHaveURL(/\/dashboard$/)

  // Create the agent in the editor.
  await page.getByRole('link', { name: 'Agents' }).click()
  await expect(page).toHaveURL(/\/dashboard\/agents$/)
  await page.getByRole('link', { name: 'New agent' }).first().click()
  await page.getByLabel('Name', { exact: true }).fill('E2E reminder')
  await page.getByLabel('Prompt').fill('You are Sarah from Bright Dental. Remind {{name}} about the cleaning tomorrow at 3 pm and ask if the time still works.')
  await expect(page.getByTestId('agent-variables')).toContainText('{{name}}')
  // The languages that passed the offline speech benchmark: English; the demo brain's limit said.
  await expect(page.getByLabel('Language')).toHaveValue('en-US')
  await expect(page.getByText(/demo brain understands and answers in English only/)).toBeVisible()
  const maxDuration = page.getByLabel('Max duration')
  await maxDuration.focus()
  await page.keyboard.press('Home')
  await page.keyboard.press('ArrowRight') // 2 minutes
  await page.getByLabel('Dispositions (the analysis picks one)').fill('confirmed')
  await page.getByLabel('Dispositions (the analysis picks one)').press('Enter')
  await page.getByRole('button', { name: 'Create agent' }).click()
  await expect(page).toHaveURL(/\/dashboard\/agents$/)
  const row = page.getByTestId('agents-table').getByRole('row').filter({ hasText: 'E2E reminder' })
  await expect(row).toContainText('{{name}}')

  // Send Call starts from it: the form is filled, the variable is asked for.
  await openFromSidebar(page, 'Send Call')
  await expect(page.getByTestId('send-balance')).toBeVisible()
  await page.getByLabel('Start from agent').selectOption({ label: 'E2E reminder' })
  await expect(page.getByLabel('What should the agent do?')).toHaveValue(/Remind \{\{name\}\} about the cleaning/)
  await expect(page.getByText('2 min', { exact: true })).toBeVisible()
  await page.getByLabel('{{name}}').fill('Ann')
  await page.getByLabel('Phone number').fill(NUMBER)
  const sent = page.waitForResponse((r) => r.url().endsWith('/api/v1/send-call') && r.request().method() === 'POST')
  await page.getByRole('button', { name: 'Send Call' }).click()
  const body = (await (await sent).json()) as { callId: string }
  expect(body.callId).toBeTruthy()
  await expect(page.getByRole('button', { name: 'Stop Call' })).toBeEnabled()

  // The call was placed with the value filled in (what the agent was told).
  const details = await page.evaluate(async (id) => {
    const response = await fetch(`/api/v1/call-details/${id}`, { headers: { Authorization: `Bearer ${localStorage.getItem('api_token')}` } })
    return (await response.json()) as { data: { prompt: string; to: string } }
  }, body.callId)
  expect(details.data.prompt).toContain('Remind Ann about the cleaning')
  expect(details.data.to).toBe(NUMBER)

  const transcript = page.getByTestId('live-transcript')
  await expect(transcript.locator('[data-speaker="agent"]').first()).toBeVisible({ timeout: 60_000 })
  await page.getByRole('button', { name: 'Stop Call' }).click()
  await expect(page.getByText('Call stopped successfully')).toBeVisible()

  await page.getByRole('link', { name: 'Call Logs' }).click()
  await expect(page.getByTestId('calls-table').getByRole('row').filter({ hasText: NUMBER }).first()).toBeVisible()
})
