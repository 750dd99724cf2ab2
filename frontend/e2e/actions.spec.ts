/** In-call actions (docs/actions.md, issue 29): the agent editor's Transfer, Keypad and Tools
 * sections are filled, a tool is refused then fixed and tested against an endpoint (the app's
 * own health route), and all of it is kept across a reload; then a sandbox call from Send Call,
 * on that agent with a transfer number of its own, reaches the callee who asks for a person and
 * is transferred: the call page shows the action lines (with their arguments, status) and the
 * transfer's two parts. */
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { DEMO, openFromSidebar, signIn } from './helpers'

const AGENT = 'E2E transfers'
const PROMPT = 'You are Sarah from Bright Dental. You are calling to remind the customer about their cleaning appointment tomorrow at 3 pm. Ask if the time still works for them.'
const WANTS_A_PERSON = '+15005550010' // docs/sandbox.md
const JORDAN = '+15005550011' // answers and talks
const NO_ANSWER = '+15005550013'

/** The editor's card whose heading is `title`. */
function section(page: Page, title: string): Locator {
  return page.locator('div.rounded-2xl').filter({ has: page.getByRole('heading', { name: title, exact: true }) }).last()
}

async function seriousAxe(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact} ${v.id}: ${v.help}`)
}

async function fillEditor(page: Page): Promise<void> {
  await page.goto('/dashboard/agents/new')
  await page.getByLabel('Name', { exact: true }).fill(AGENT)
  await page.getByLabel('Prompt').fill(PROMPT)
  const transfer = section(page, 'Transfer')
  await transfer.getByLabel('Transfer number (optional)').fill(NO_ANSWER)
  await transfer.getByRole('button', { name: 'Add department' }).click()
  await transfer.getByLabel('Department', { exact: true }).fill('billing')
  await transfer.getByLabel('Number', { exact: true }).fill('+15005550012')
  await transfer.getByLabel('Warm: the person hears a summary first').check()
  const keypad = section(page, 'Keypad')
  const keys = keypad.getByLabel('Keys to press when answered (optional)')
  await keys.fill('12x')
  await page.getByRole('button', { name: 'Create agent' }).click()
  await expect(keypad.getByRole('alert')).toContainText('0-9')
  await keys.fill('1w2#')
  await expect(keypad.getByTestId('agent-precall-keys')).toHaveText('Presses 1 (pause) 2 #')
  await page.getByRole('button', { name: 'Create agent' }).click()
  await expect(page).toHaveURL(/\/dashboard\/agents$/)
}

async function addAndTestTool(page: Page): Promise<void> {
  const tools = page.getByRole('region', { name: 'Tools' })
  await tools.getByRole('button', { name: 'Add tool' }).click()
  const form = tools.getByRole('group', { name: 'New tool' })
  await form.getByLabel('Tool name').fill('end_call')
  await form.getByLabel('Description').fill('Whether the app is up: ask it when the callee asks about the service.')
  await form.getByLabel('Method').selectOption('GET')
  await form.getByLabel('URL').fill(new URL('/api/v1/health', page.url()).href)
  await form.getByRole('button', { name: 'Add tool' }).click()
  await expect(form.getByText('"end_call" is a built-in tool\'s name.')).toBeVisible()
  await form.getByLabel('Tool name').fill('check_service')
  await form.getByRole('button', { name: 'Add tool' }).click()
  await expect(tools.getByText('check_service', { exact: true })).toBeVisible()
  await tools.getByRole('button', { name: 'Test check_service' }).click()
  await tools.getByRole('button', { name: 'Run test' }).click()
  const result = tools.getByRole('status', { name: 'Test result' })
  await expect(result).toContainText('succeeded · HTTP 200')
  await expect(result.locator('pre')).toContainText('"status"')
}

test('the editor keeps a transfer, keys and a tested tool; a Send Call call is transferred and its page shows the actions', async ({ page }) => {
  test.setTimeout(240_000)
  await signIn(page, DEMO.email, DEMO.password)
  await expect(page).toHaveURL(/\/dashboard$/)
  await fillEditor(page)

  await page.getByRole('link', { name: `Edit ${AGENT}` }).click()
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue(AGENT)
  await addAndTestTool(page)
  await page.screenshot({ path: 'test-results/actions-tools.png', fullPage: true })

  // Reloaded: everything kept.
  await page.reload()
  const transfer = section(page, 'Transfer')
  await expect(transfer.getByLabel('Transfer number (optional)')).toHaveValue(NO_ANSWER)
  await expect(transfer.getByLabel('Department', { exact: true })).toHaveValue('billing')
  await expect(transfer.getByLabel('Number', { exact: true })).toHaveValue('+15005550012')
  await expect(transfer.getByLabel('Warm: the person hears a summary first')).toBeChecked()
  const keypad = section(page, 'Keypad')
  await expect(keypad.getByLabel('Keys to press when answered (optional)')).toHaveValue('1w2#')
  await expect(page.getByRole('region', { name: 'Tools' }).getByText('check_service', { exact: true })).toBeVisible()
  await transfer.screenshot({ path: 'test-results/actions-transfer.png' })
  await keypad.screenshot({ path: 'test-results/actions-keypad.png' })
  await page.getByRole('region', { name: 'Tools' }).screenshot({ path: 'test-results/actions-tools-section.png' })
  expect(await seriousAxe(page), 'axe on the agent editor').toEqual([])

  // The call presses no keys before the callee asks for a person: the keys are taken off.
  await keypad.getByLabel('Keys to press when answered (optional)').fill('')
  await page.getByRole('button', { name: 'Save agent' }).click()
  await expect(page).toHaveURL(/\/dashboard\/agents$/)

  // Send Call, from the agent, with a transfer number of the call's own (over the agent's).
  await openFromSidebar(page, 'Send Call')
  await expect(page.getByTestId('send-balance')).toBeVisible()
  await page.getByLabel('Start from agent').selectOption({ label: AGENT })
  await expect(page.getByLabel('Transfer number (optional)')).toHaveValue(NO_ANSWER)
  await page.getByLabel('Transfer number (optional)').fill(JORDAN)
  await page.getByLabel('Phone number').fill(WANTS_A_PERSON)
  const sent = page.waitForResponse((r) => r.url().endsWith('/api/v1/send-call') && r.request().method() === 'POST')
  await page.getByRole('button', { name: 'Send Call' }).click()
  const { callId } = (await (await sent).json()) as { callId: string }
  expect(callId).toBeTruthy()
  // The transfer's action line reaches the live transcript.
  await expect(page.getByTestId('live-transcript').locator('[data-action="transfer"]').first()).toBeVisible({ timeout: 90_000 })

  // Once it has ended, its page: the transfer's two parts and the action lines with their details.
  await expect
    .poll(
      async () =>
        page.evaluate(async (id) => {
          const response = await fetch(`/api/v1/call/${id}/page`, { headers: { Authorization: `Bearer ${localStorage.getItem('api_token')}` } })
          const body = (await response.json()) as { data: { outcome: string | null; transfer: { post_transfer_duration: number | null } } }
          return body.data.transfer.post_transfer_duration !== null ? body.data.outcome : null
        }, callId),
      { timeout: 150_000, intervals: [2000] },
    )
    .toBe('transferred')
  await page.goto(`/dashboard/calls/${callId}`)
  const panel = page.getByTestId('call-transfer')
  await expect(panel).toContainText(JORDAN)
  await expect(panel).toContainText('Warm: the person heard a summary first')
  await expect(panel).toContainText('The person took the call')
  await expect(panel).toContainText('With the agent')
  await expect(panel).toContainText('With the person')
  await expect(panel).toContainText('Ended by')
  const timeline = page.getByTestId('call-timeline')
  const facts = timeline.getByTestId('action-facts')
  await expect(facts.filter({ hasText: 'started' }).filter({ hasText: `to: ${JORDAN}` })).toHaveCount(1)
  await expect(facts.filter({ hasText: 'succeeded' }).filter({ hasText: 'transfer' })).toHaveCount(1)
  await expect(page.getByText(/Person/).first()).toBeVisible()
  expect(await seriousAxe(page), 'axe on the call page').toEqual([])
  await page.screenshot({ path: 'test-results/actions-call-page.png', fullPage: true })
})
