import { expect, test } from '@playwright/test'
import { DEMO, signIn } from './helpers'

test('a prompt agent shows what the offline agent will say, and "Edit as flow" opens it in the flow editor', async ({ page }) => {
  test.setTimeout(90_000)
  await signIn(page, DEMO.email, DEMO.password)
  await page.getByRole('link', { name: 'Agents' }).click()
  await page.getByRole('link', { name: 'New agent' }).first().click()
  await page.getByLabel('Name', { exact: true }).fill('E2E derived')
  await page.getByLabel('Prompt').fill('You are Sarah from Bright Dental. You are calling to confirm the cleaning tomorrow at 3 pm. Ask if the time still works for them.')
  await page.getByRole('button', { name: 'Create agent' }).click()
  await expect(page).toHaveURL(/\/dashboard\/agents$/)
  await page.getByTestId('agents-table').getByRole('link', { name: 'E2E derived' }).first().click()

  const panel = page.getByRole('region', { name: 'What the offline agent will say' })
  const steps = panel.getByRole('list', { name: 'The conversation' })
  await expect(steps.getByRole('listitem').first()).toContainText('Greeting: “Hi, this is Sarah from Bright Dental.')
  await expect(steps).toContainText('Asks: “Could you tell me if the time still works for you?”')
  await expect(panel.getByRole('list', { name: 'Answers to “Could you tell me if the time still works for you?”' })).toContainText("Yes → “Wonderful, thank you. You're all set. Goodbye.”")
  await expect(panel.getByRole('list', { name: 'Whatever the question' })).toContainText('Voicemail: “Hi, this is Sarah from Bright Dental.')

  await panel.getByRole('button', { name: 'Edit as flow' }).click()
  await expect(page).toHaveURL(/\/dashboard\/flows\/[\w-]+$/)
  await expect(page.getByRole('heading', { name: 'E2E derived (from prompt)' })).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Nodes' })).toContainText('Question 1')
})
