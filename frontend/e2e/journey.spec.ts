import { expect, test, type Page } from '@playwright/test'
import { ADMIN, openFromSidebar, signIn, signOut } from './helpers'

/** "m:ss" as seconds. */
function seconds(position: string): number {
  const [m, s] = position.split(':').map(Number)
  return (m ?? 0) * 60 + (s ?? 0)
}

/** The verification link of `email`'s latest mail, read from the outbox an admin sees. */
async function verificationLink(page: Page, email: string): Promise<string> {
  const admin = await page.context().browser()!.newContext()
  const tab = await admin.newPage()
  await signIn(tab, ADMIN.email, ADMIN.password)
  const row = tab.getByTestId('outbox-list').getByRole('listitem').filter({ hasText: email }).first()
  const link = await row.getByTestId('outbox-link').getAttribute('href')
  await admin.close()
  return link!
}

test('a new user registers, verifies, adds $25 by card, places a call, opens its page, plays it and seeks from the transcript, reads its analysis, and finds the top-up and the charge in the billing history', async ({ page }, info) => {
  test.setTimeout(420_000)
  const email = `journey-${Date.now()}@example.com`
  const password = 'a journey password'

  // Sign-up from the public site, then the e-mail's link.
  await page.goto('/')
  await page.getByRole('link', { name: /Get Started/ }).first().click()
  await expect(page).toHaveURL(/\/register$/)
  await page.getByLabel('Full name').fill('Jo Journey')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByLabel('Confirm password').fill(password)
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible()
  await page.goto(await verificationLink(page, email))
  await expect(page.getByText('Email verified successfully')).toBeVisible()
  await signIn(page, email, password)
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByTestId('balance')).toHaveText('$1.00') // the starter credit

  // $25 by card through localstripe's Card Element; the balance rises when the webhook lands.
  await page.getByRole('link', { name: 'Billing', exact: true }).first().click()
  await page.getByRole('button', { name: '$25.00', exact: true }).click()
  const card = page.getByTestId('card-element')
  await card.getByPlaceholder('number').fill('4242424242424242')
  await card.getByPlaceholder('exp_month').fill('12')
  await card.getByPlaceholder('exp_year').fill('30')
  await card.getByPlaceholder('cvc').fill('123')
  await card.getByPlaceholder('postal_code').fill('94107')
  await page.getByRole('button', { name: 'Pay $25.00' }).click()
  await expect(page.getByTestId('top-up-status')).toContainText('$25.00 added to your balance', { timeout: 30_000 })
  await expect(page.getByTestId('balance-available')).toHaveText('$26.00')

  // A call from Send Call, to its end.
  await openFromSidebar(page, 'Send Call')
  await page.getByLabel('What should the agent do?').fill('You are Sarah from Bright Dental. Remind the customer about their cleaning tomorrow at 3 pm and ask if the time still works.')
  await page.getByLabel('Phone number').fill('(555) 123-0000')
  const maxDuration = page.getByLabel('Max duration')
  await maxDuration.focus()
  await page.keyboard.press('Home')
  await page.keyboard.press('ArrowRight') // 2 minutes
  await page.getByRole('button', { name: 'Send Call' }).click()
  await expect(page.getByText(/You can now start a new call\./)).toBeVisible({ timeout: 180_000 })

  // Call Logs, narrowed to this call's outcome and number, opens the call's page.
  const outcome = await page.evaluate(async () => {
    const response = await fetch(`/api/v1/user/${localStorage.getItem('userId')}/calls?per_page=1`, {
      headers: { Authorization: `Bearer ${localStorage.getItem('api_token')}` },
    })
    return ((await response.json()) as { data: { outcome: string }[] }).data[0]?.outcome ?? ''
  })
  expect(outcome).toBeTruthy()
  await page.getByRole('link', { name: 'Call Logs', exact: true }).first().click()
  await page.getByRole('combobox', { name: 'Outcome' }).selectOption(outcome)
  await page.getByRole('searchbox', { name: 'Search by phone number' }).fill('555 123 0000')
  const row = page.getByTestId('calls-table').getByRole('row').filter({ hasText: '+15551230000' }).first()
  await row.getByRole('link', { name: 'Open call page' }).click()
  await expect(page).toHaveURL(/\/dashboard\/calls\/[0-9a-f-]{36}$/)
  const callUrl = new URL(page.url()).pathname
  await expect(page.getByRole('heading', { name: 'Call to +15551230000' })).toBeVisible()

  // Its analysis: summary and outcome (the analysis runs on its own once the call ended).
  await expect(page.getByTestId('call-analysis-summary')).not.toBeEmpty({ timeout: 60_000 })
  await expect(page.getByTestId('call-analysis-outcome')).not.toBeEmpty()
  await expect(page.getByTestId('call-cost-explanation')).toContainText('x $0.49')

  // Play it; a click on a later transcript line seeks there and highlights it.
  await expect(page.getByText('Drawing the waveform…')).toHaveCount(0, { timeout: 30_000 })
  const audio = page.getByTestId('call-audio')
  await page.getByRole('button', { name: 'Play recording' }).click()
  await expect.poll(() => audio.evaluate((a) => (a as HTMLAudioElement).currentTime), { timeout: 15_000 }).toBeGreaterThan(0.3)
  const lines = page.getByTestId('synced-transcript').getByRole('button')
  const count = await lines.count()
  expect(count).toBeGreaterThan(1)
  const target = lines.nth(count - 1)
  const at = seconds(/ at (\d+:\d\d):/.exec((await target.getAttribute('aria-label')) ?? '')?.[1] ?? '0:00')
  await target.click()
  const after = await audio.evaluate((a) => (a as HTMLAudioElement).currentTime)
  expect(after).toBeGreaterThanOrEqual(at)
  expect(after).toBeLessThan(at + 2)
  await expect(target).toHaveAttribute('aria-current', 'true')
  await audio.evaluate((a) => (a as HTMLAudioElement).pause())
  await page.screenshot({ path: info.outputPath('call-page.png'), fullPage: true })

  // The billing history: the top-up and the call's charge (with its call).
  await page.getByRole('link', { name: 'Billing', exact: true }).first().click()
  const history = page.getByTestId('billing-history')
  await expect(history.locator('tr', { hasText: 'Top-up' }).first()).toContainText('+$25.00')
  const charge = history.locator('tr', { hasText: 'Charge' }).first()
  await expect(charge).toContainText('Call ')
  await expect(charge).toContainText('−$')
  await expect(history.locator('tr', { hasText: 'Starter credit' })).toContainText('+$1.00')
  await page.screenshot({ path: info.outputPath('billing-history.png'), fullPage: true })

  // An admin opens the same call's page, with who placed it.
  await signOut(page)
  await signIn(page, ADMIN.email, ADMIN.password)
  await expect(page).toHaveURL(/\/admin$/)
  await page.getByRole('link', { name: 'Call Logs', exact: true }).first().click()
  const adminRow = page.getByTestId('admin-calls').getByRole('row').filter({ hasText: email }).first()
  await adminRow.getByRole('link', { name: 'Open call page' }).click()
  await expect(page).toHaveURL(callUrl.replace('/dashboard/', '/admin/'))
  await expect(page.getByText(`(${email})`)).toBeVisible()
  await expect(page.getByTestId('call-analysis-summary')).not.toBeEmpty()
})
