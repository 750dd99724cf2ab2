import { expect, test, type Page } from '@playwright/test'
import { ADMIN, DEMO, openFromSidebar, signIn } from './helpers'

const PROMPT = 'You are Sarah from Bright Dental. Remind the customer about their cleaning tomorrow at 3 pm and ask if the time still works.'

/** Register `email`, open the verification link from the outbox an admin reads, and sign in. */
async function registerAndSignIn(page: Page, name: string, email: string, password: string): Promise<void> {
  await page.goto('/register')
  await page.getByLabel('Full name').fill(name)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByLabel('Confirm password').fill(password)
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible()
  const admin = await page.context().browser()!.newContext()
  const tab = await admin.newPage()
  await signIn(tab, ADMIN.email, ADMIN.password)
  const link = await tab.getByTestId('outbox-list').getByRole('listitem').filter({ hasText: email }).first().getByTestId('outbox-link').getAttribute('href')
  await admin.close()
  await page.goto(link!)
  await expect(page.getByText('Email verified successfully')).toBeVisible()
  await signIn(page, email, password)
  await expect(page).toHaveURL(/\/dashboard$/)
}

/** Press Tab until the focused element matches `selector` (and reads `text`, when given): a
 * keyboard user's way to a control. */
async function tabTo(page: Page, selector: string, text?: string, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab')
    const reached = await page.evaluate(
      ([s, t]) => {
        const el = document.activeElement
        return !!el && el.matches(s!) && (t === undefined || el.textContent?.trim() === t)
      },
      [selector, text] as const,
    )
    if (reached) return
  }
  throw new Error(`${selector}${text ? ` "${text}"` : ''} was not reached with Tab`)
}

// The browser is in Berlin: the new user's zone is stored from it at the first sign-in.
test.use({ timezoneId: 'Europe/Berlin' })

test('a newly registered user with only the starter credit completes a first call with the form as it comes', async ({ page }) => {
  test.setTimeout(300_000)
  await registerAndSignIn(page, 'Fay First', `first-call-${Date.now()}@example.com`, 'a first-call password')
  await expect(page.getByTestId('balance')).toHaveText('$1.00')

  await openFromSidebar(page, 'Send Call')
  // $1.00 holds 2 minutes at $0.49, not the default 30: the field starts there and says so.
  await expect(page.getByLabel('Max duration')).toHaveValue('2')
  await expect(page.getByTestId('max-duration-fitted')).toHaveText('Set to 2 min, the most your balance of $1.00 covers (the usual default is 30 min).')
  await expect(page.getByTestId('balance-covers')).toHaveCount(0)

  // Only what has no default: the prompt and the number.
  await page.getByLabel('What should the agent do?').fill(PROMPT)
  await page.getByLabel('Phone number').fill('+15551230000')
  await page.getByRole('button', { name: 'Send Call' }).click()
  await expect(page.getByText('Insufficient balance')).toHaveCount(0)
  await expect(page.getByRole('button', { name: /^(Calling\.\.\.|On call)$/ })).toBeDisabled()
  const panel = page.getByRole('region', { name: 'Transcript' })
  await expect(panel).toBeInViewport()
  await expect(panel).toBeFocused()

  // Answered: the button says so, the lines come, Recent Calls tick the duration and cost.
  await expect(page.getByRole('button', { name: 'On call' })).toBeDisabled({ timeout: 60_000 })
  await expect(panel.locator('[data-speaker="agent"]').first()).toBeVisible({ timeout: 60_000 })
  const live = page.getByTestId('recent-calls').locator('li[data-live]').first()
  await expect(live).toBeVisible()
  const duration = live.getByTestId('recent-call-duration')
  const first = await duration.textContent()
  await expect(duration).not.toHaveText(first ?? '', { timeout: 5_000 })
  await expect(live.getByTestId('recent-call-cost')).toHaveText(/^\$0\.(00|49|98)$/)
  await page.screenshot({ path: test.info().outputPath('first-call-live.png'), fullPage: true })

  // The closing toast says how it ended (the simulated person may hang up first): its end is the same.
  await expect(page.getByText(/You can now start a new call\./)).toBeVisible({ timeout: 180_000 })
  await expect(page.getByRole('button', { name: 'Send Call' })).toBeVisible()
  // The finished call links to its own page, from the transcript and from Recent Calls.
  await expect(page.getByTestId('recent-calls').getByRole('link', { name: 'Open the call to +15551230000' }).first()).toBeVisible()
  await panel.getByRole('link', { name: "Open this call's page" }).click()
  await expect(page).toHaveURL(/\/dashboard\/calls\/[0-9a-f-]{36}$/)

  // The zone stored from the browser at the first sign-in, on the Account page.
  await page.goto('/dashboard/account')
  await expect(page.getByLabel('Your time zone')).toHaveValue('Europe/Berlin')
})

test('Send Call from the keyboard alone on a 390 px phone: Tab to the fields, Enter on Send Call, the transcript in view, Space on Stop Call', async ({ page }) => {
  test.setTimeout(180_000)
  await page.setViewportSize({ width: 390, height: 844 })
  await signIn(page, DEMO.email, DEMO.password)
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/dashboard/send-call')
  await expect(page.getByTestId('send-balance')).toBeVisible()

  await tabTo(page, '#prompt')
  await page.keyboard.type(PROMPT)
  await tabTo(page, '#phone')
  await page.keyboard.type('+15551230000')
  await tabTo(page, '#max-duration')
  await page.keyboard.press('Home')
  await page.keyboard.press('ArrowRight') // 2 minutes
  await expect(page.getByLabel('Max duration')).toHaveValue('2')
  await tabTo(page, 'button', 'Send Call')
  await page.keyboard.press('Enter')

  const panel = page.getByRole('region', { name: 'Transcript' })
  await expect(panel).toBeFocused()
  await expect(panel).toBeInViewport()
  const line = panel.locator('[data-speaker="agent"]').first()
  await expect(line).toBeVisible({ timeout: 60_000 })
  await expect(line).toBeInViewport()
  await page.screenshot({ path: test.info().outputPath('send-call-keyboard-390.png') })

  await tabTo(page, 'button', 'Stop Call')
  await page.keyboard.press('Space')
  await expect(page.getByText('Call stopped successfully')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Send Call' })).toBeVisible()
})
