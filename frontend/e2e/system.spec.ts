import { expect, test } from '@playwright/test'
import { ADMIN, DEMO, signIn, signOut } from './helpers'

test('a user sees the sandbox and offline-brain notices, reads the number plan, and dismisses them for good', async ({ page }) => {
  await signIn(page, DEMO.email, DEMO.password)
  await expect(page).toHaveURL(/\/dashboard$/)
  const sandbox = page.getByRole('region', { name: 'Calls go to the sandbox network' })
  const brain = page.getByRole('region', { name: "The agent's brain is the offline demo policy" })
  await expect(sandbox).toBeVisible()
  await expect(brain).toContainText('LLM_BASE_URL')
  await page.screenshot({ path: 'test-results/notices.png' })
  await sandbox.getByRole('link', { name: 'See the sandbox numbers' }).click()
  await expect(page).toHaveURL(/\/dashboard\/sandbox$/)
  await expect(page.getByTestId('sandbox-special')).toContainText('+15005550004')
  await expect(page.getByTestId('sandbox-scenarios')).toContainText('+15551230003')
  await page.screenshot({ path: 'test-results/sandbox-numbers.png', fullPage: true })

  await page.getByRole('button', { name: 'Dismiss: Calls go to the sandbox network' }).click()
  await page.getByRole('button', { name: "Dismiss: The agent's brain is the offline demo policy" }).click()
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Sandbox numbers' })).toBeVisible()
  await expect(sandbox).toHaveCount(0)
  await expect(brain).toHaveCount(0)
  await signOut(page)
})

test('the admin opens the System page from the sidebar and reads every part with its health', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password)
  await expect(page).toHaveURL(/\/admin$/)
  await page.getByRole('complementary', { name: 'Main navigation' }).getByRole('link', { name: 'System' }).click()
  await expect(page).toHaveURL(/\/admin\/system$/)
  for (const key of ['carrier', 'brain', 'stt', 'tts', 'jobs', 'realtime', 'database', 'mail', 'payments']) {
    await expect(page.getByTestId(`system-${key}`)).toBeVisible()
  }
  await expect(page.getByTestId('system-database')).toContainText('OK')
  await expect(page.getByTestId('system-database')).toContainText('SELECT 1 answered.')
  await expect(page.getByTestId('system-carrier')).toContainText('sandbox network')
  await expect(page.getByTestId('system-brain')).toContainText('offline demo policy')
  // The e2e server runs localstripe beside it: the payments check reaches it.
  await expect(page.getByTestId('system-payments')).toContainText('localstripe (local emulator)')
  await expect(page.getByTestId('system-payments')).toContainText('OK')
  await expect(page.getByRole('status')).toContainText('Checked at')
  await page.mouse.move(900, 700) // off the sidebar, which opens on hover
  await page.screenshot({ path: 'test-results/admin-system.png', fullPage: true })
  await page.getByRole('button', { name: 'Check again' }).click()
  await expect(page.getByRole('button', { name: 'Check again' })).toBeEnabled()
})
