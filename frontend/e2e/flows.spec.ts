import { expect, test, type Locator, type Page } from '@playwright/test'
import { DEMO, earlierCallsOver, openFromSidebar, signIn } from './helpers'

const addEdge = async (page: Page, from: string, to: string, fields: { kind?: string; label?: string; intent?: string } = {}) => {
  const form = page.getByRole('form', { name: 'Add edge' })
  await form.getByLabel('From').selectOption(from)
  await form.getByLabel('To').selectOption(to)
  if (fields.kind) await form.getByLabel('Kind').selectOption(fields.kind)
  if (fields.label) await form.getByLabel('Label').fill(fields.label)
  if (fields.intent) await form.getByLabel('Or a built-in intent').selectOption(fields.intent)
  await form.getByRole('button', { name: 'Add edge' }).click()
}

const node = (page: Page, id: string): Locator => page.getByTestId(`node-${id}`)

test('a five-node flow is built from blank, its problem shown and fixed, published, tested in text, and a call placed on it shows its path live and after', async ({ page }) => {
  test.setTimeout(180_000)
  await signIn(page, DEMO.email, DEMO.password)
  await expect(page).toHaveURL(/\/dashboard$/)
  await openFromSidebar(page, 'Flows')
  await page.getByRole('button', { name: 'New flow' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'New flow' })
  await dialog.getByLabel('Name').fill('E2E confirmation')
  await dialog.getByRole('button', { name: 'Create flow' }).click()
  await expect(page.getByRole('heading', { name: 'E2E confirmation' })).toBeVisible()
  await expect(node(page, 'start')).toContainText('Start')

  // Nodes from the toolbar, each edited in the side panel.
  await page.getByRole('button', { name: 'Add Ask node' }).click()
  const form = page.getByRole('form', { name: 'Node' })
  await form.getByLabel('Name').fill('Confirm')
  await form.getByLabel('Question').fill('Can you still make it tomorrow at 3 pm?')
  await form.getByRole('button', { name: 'Apply' }).click()
  await page.getByRole('button', { name: 'Add Action node' }).click()
  await form.getByLabel('Name').fill('Confirmed')
  await form.getByRole('button', { name: 'Apply' }).click()
  await page.getByRole('button', { name: 'Add Say node' }).click()
  await form.getByLabel('Name').fill('Call back')
  await form.getByLabel('Line').fill('No problem, we will call you back to find a new time.')
  await form.getByRole('button', { name: 'Apply' }).click()
  await page.getByRole('button', { name: 'Add Action node' }).click()
  await expect(page.getByRole('navigation', { name: 'Nodes' }).getByRole('button')).toHaveCount(5)

  // One edge dragged from a handle, the rest from the keyboard's form.
  await page.getByRole('button', { name: 'Fit to view' }).click()
  await node(page, 'start').locator('.react-flow__handle.source').dragTo(node(page, 'ask_1').locator('.react-flow__handle.target'))
  await expect(page.getByRole('form', { name: 'Edge', exact: true })).toBeVisible()
  await addEdge(page, 'ask_1', 'action_1', { kind: 'answer', label: 'Yes', intent: 'yes' })
  await addEdge(page, 'ask_1', 'say_1', { kind: 'answer', label: 'No', intent: 'no' })
  await addEdge(page, 'say_1', 'action_2')
  await page.getByRole('button', { name: 'Save draft' }).click()

  // The server's problem: the ask has no fallback. Publishing waits for the fix.
  const problems = page.getByTestId('problems')
  await expect(problems).toContainText("Ask 'Confirm' needs exactly one fallback edge")
  await expect(node(page, 'ask_1')).toHaveClass(/border-rose-500/)
  await expect(page.getByRole('button', { name: 'Publish' })).toBeDisabled()
  await problems.getByRole('button', { name: /Confirm/ }).click()
  await expect(page.getByRole('form', { name: 'Node' }).getByLabel('Name')).toHaveValue('Confirm')
  await expect(page.getByRole('form', { name: 'Add edge' }).getByLabel('Kind')).toHaveValue('fallback')
  await addEdge(page, 'ask_1', 'say_1', { kind: 'fallback' })
  await page.getByRole('button', { name: 'Save draft' }).click()
  await expect(page.getByRole('heading', { name: 'No problems' })).toBeVisible()
  await page.getByRole('button', { name: 'Publish' }).click()
  await expect(page.getByTestId('flow-status')).toContainText('Published version 1')

  // Saved and published as drawn.
  await page.reload()
  await expect(page.getByRole('navigation', { name: 'Nodes' }).getByRole('button')).toHaveCount(5)
  await expect(page.getByTestId('flow-status')).toContainText('Published version 1')

  // The keyboard moves a selected node (one undo step), and Ctrl+Z takes it back.
  await page.locator('.react-flow__node', { has: node(page, 'ask_1') }).focus()
  await page.keyboard.press('Enter')
  await page.keyboard.press('ArrowRight')
  await expect(page.getByTestId('flow-status')).toContainText('Unsaved changes')
  await page.keyboard.press('Control+z')
  await expect(page.getByTestId('flow-status')).toContainText('All changes saved')

  // Tested in text: the agent asks, "yes" takes the Yes edge to the end, no call placed.
  const panel = page.locator('section', { has: page.getByRole('heading', { name: 'Test in text' }) })
  await panel.getByRole('button', { name: 'Start test' }).click()
  const transcript = panel.getByTestId('test-transcript')
  await expect(transcript).toContainText('Can you still make it tomorrow at 3 pm?')
  await panel.getByLabel('You say').fill('Yes, that works for me')
  await panel.getByRole('button', { name: 'Send' }).click()
  await expect(transcript).toContainText("Confirm: answer 'Yes'")
  await expect(transcript).toContainText('Thank you for your time. Goodbye.')
  await expect(transcript).toContainText('The call ends')

  // A call on it, to the sandbox's callee who confirms: the node change is marked live.
  await earlierCallsOver(page)
  await openFromSidebar(page, 'Send Call')
  await expect(page.getByTestId('send-balance')).toBeVisible()
  await page.getByLabel('Conversation flow').selectOption({ label: 'E2E confirmation (version 1)' })
  await expect(page.getByTestId('flow-picked')).toContainText('Calls run published version 1')
  await expect(page.getByLabel('Start at')).toContainText("The flow's start: Greeting")
  await page.getByLabel('Phone number').fill('+15005550050')
  const maxDuration = page.getByLabel('Max duration')
  await maxDuration.focus()
  await page.keyboard.press('Home')
  await page.keyboard.press('ArrowRight') // 2 minutes
  await page.getByRole('button', { name: 'Send Call' }).click()
  const live = page.getByTestId('live-transcript')
  await expect(live.getByTestId('flow-step').filter({ hasText: "-> Confirm (answer 'Yes'" })).toBeVisible({ timeout: 90_000 })
  await expect(live.locator('[data-speaker="agent"]').first()).toContainText('Can you still make it tomorrow at 3 pm?')
  await page.screenshot({ path: 'test-results/flow-calls-live.png', fullPage: true })

  // The call's page draws the path on the graph.
  await page.getByTestId('finished-call-link').click({ timeout: 60_000 })
  const path = page.getByTestId('flow-path')
  await expect(path).toBeVisible()
  await expect(path.getByTestId('flow-path-step').filter({ hasText: 'Confirm' }).first()).toContainText('Took "Yes"')
  await expect(path.getByTestId('flow-graph').locator('.react-flow__node.flow-visited')).not.toHaveCount(0)
  await expect(page.getByTestId('synced-transcript').getByTestId('flow-step').first()).toBeVisible()
  await path.scrollIntoViewIfNeeded()
  await page.screenshot({ path: 'test-results/flow-calls-page.png', fullPage: true })
})

test('a starter flow is tested in text: the agent opens, an answer takes a path, reset starts again', async ({ page }) => {
  await signIn(page, DEMO.email, DEMO.password)
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/dashboard/flows')
  await page.getByRole('button', { name: 'New flow' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'New flow' })
  await dialog.getByRole('radio', { name: /Appointment confirmation/ }).check()
  await dialog.getByLabel('Name').fill('E2E appointment')
  await dialog.getByRole('button', { name: 'Create flow' }).click()
  await expect(page.getByRole('heading', { name: 'E2E appointment' })).toBeVisible()

  const panel = page.locator('section', { has: page.getByRole('heading', { name: 'Test in text' }) })
  await panel.getByRole('button', { name: 'Start test' }).click()
  const transcript = panel.getByTestId('test-transcript')
  await expect(transcript.locator('li').first()).toBeVisible()
  await expect(page.locator('[data-path="current"]')).toHaveCount(1)
  await panel.getByLabel('You say').fill('Yes, that works for me')
  await panel.getByRole('button', { name: 'Send' }).click()
  await expect(transcript).toContainText('You: Yes, that works for me')
  await expect(transcript).toContainText(/answer/)
  await page.screenshot({ path: 'test-results/flow-editor-test.png', fullPage: true })
  await panel.getByRole('button', { name: 'Reset' }).click()
  await expect(transcript.locator('li')).toHaveCount(0)
  await expect(panel.getByRole('button', { name: 'Start test' })).toBeVisible()
})
