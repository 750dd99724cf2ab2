/** The agent lab's Tests tab (issue 32): two scenarios written through the form, one that
 * fails (it expects a phrase the agent never says, and a call of at most 1 s) and one that
 * passes, the suite run as real
 * sandbox calls, its progress followed to the end, and the failed check shown with its evidence. */
import { expect, test, type Locator, type Page } from '@playwright/test'
import { api, DEMO, signIn } from './helpers'

const PROMPT = 'You are Sarah from Bright Dental. Confirm the cleaning appointment tomorrow at 3 pm.'

/** A new scenario through the form: a callee of two lines and one phrase expectation. */
async function addScenario(page: Page, name: string, expectation: { says?: string; neverSays?: string; maxCallSeconds?: string }): Promise<void> {
  await page.getByRole('button', { name: 'New scenario', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'New scenario' })
  await dialog.getByLabel('Name', { exact: true }).fill(name)
  await dialog.getByLabel('Line 1', { exact: true }).fill('Yes, that works.')
  await dialog.getByRole('button', { name: 'Add line' }).click()
  await dialog.getByLabel('Line 2', { exact: true }).fill('Thank you, goodbye.')
  if (expectation.says) {
    await dialog.getByRole('button', { name: 'Add phrase said' }).click()
    await dialog.getByLabel('Phrase said 1', { exact: true }).fill(expectation.says)
  }
  if (expectation.neverSays) {
    await dialog.getByRole('button', { name: 'Add phrase never said' }).click()
    await dialog.getByLabel('Phrase never said 1', { exact: true }).fill(expectation.neverSays)
  }
  if (expectation.maxCallSeconds) await dialog.getByLabel('Max call seconds').fill(expectation.maxCallSeconds)
  await dialog.getByRole('button', { name: 'Save scenario' }).click()
  await expect(dialog).toBeHidden()
}

const result = (page: Page, name: string): Locator => page.getByTestId('result-row').filter({ hasText: name })

test('a suite written in the Tests tab runs as sandbox calls, its progress shown live, and a failed check shows its evidence', async ({ page }) => {
  test.setTimeout(240_000)
  await signIn(page, DEMO.email, DEMO.password)
  await expect(page).toHaveURL(/\/dashboard$/)
  const agent = await api<{ data: { id: string } }>(page, 'POST', 'agents', { name: 'E2E lab reminder', prompt: PROMPT, max_duration: 1 })
  expect(agent.data.id).toBeTruthy()

  // The agent's page has a Tests tab, reached by its link and kept on reload.
  await page.goto(`/dashboard/agents/${agent.data.id}`)
  await page.getByRole('navigation', { name: 'Agent' }).getByRole('link', { name: 'Tests' }).click()
  await expect(page).toHaveURL(new RegExp(`/dashboard/agents/${agent.data.id}/tests$`))
  await expect(page.getByTestId('lab-empty')).toBeVisible()

  await addScenario(page, 'Expects the Friday special', { says: 'our Friday special', maxCallSeconds: '1' })
  await addScenario(page, 'Never mentions prices', { neverSays: 'one hundred dollars' })
  await page.reload()
  await expect(page.getByTestId('scenario-row')).toHaveCount(2)

  // The run: both scenarios, followed to the end.
  await page.getByRole('button', { name: 'Run suite', exact: true }).click()
  await expect(page).toHaveURL(/\?run=/)
  const progress = page.getByRole('progressbar', { name: 'Run progress' })
  await expect(progress).toHaveAttribute('aria-valuemax', '2')
  // Live, while the calls go on: the bar short of the end, a scenario shown calling.
  await expect(progress).toHaveAttribute('aria-valuetext', /^[01] of 2 done$/)
  await expect(page.getByText('Calling', { exact: true }).first()).toBeVisible()
  await expect(page.getByTestId('run-status')).toHaveText('Failed', { timeout: 180_000 })
  await expect(progress).toHaveAttribute('aria-valuetext', '2 of 2 done')
  await expect(result(page, 'Never mentions prices').getByText('Passed', { exact: true })).toBeVisible()

  // The failed result opens on its failed check, with what was expected and the evidence.
  const failed = result(page, 'Expects the Friday special')
  await expect(failed.getByText('Failed', { exact: true })).toBeVisible()
  await failed.getByRole('button').first().click()
  const checks = failed.getByTestId('check')
  await expect(checks).toHaveCount(2)
  await expect(checks.nth(0)).toHaveAttribute('data-passed', 'false')
  await expect(checks.nth(0)).toContainText('says "our Friday special"')
  await expect(checks.nth(0)).toContainText('never said')
  // A call longer than 1 s: the evidence is the call, how long it lasted.
  const tooLong = checks.filter({ hasText: 'max_call_seconds' })
  await expect(tooLong).toHaveAttribute('data-passed', 'false')
  await expect(tooLong.getByTestId('evidence')).toContainText(/^call/i)
  // The call as the judge read it: its transcript, the agent's lines in it.
  await expect(failed.getByTestId('result-transcript')).toContainText('Agent')

  // The runs history lists it.
  await expect(page.getByTestId('run-row').first()).toContainText('1 passed, 1 failed of 2')
})
