import { expect, test } from '@playwright/test'
import { ADMIN, DEMO, signIn, signOut } from './helpers'

test('register, verify from the outbox link, sign in, land on /dashboard, sign out', async ({ page, browser }) => {
  const email = `e2e-${Date.now()}@example.com`
  await page.goto('/register')
  await page.getByLabel('Full name').fill('Edith Tester')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill('a strong password')
  await page.getByLabel('Confirm password').fill('a strong password')
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible()
  await expect(page.getByText(email)).toBeVisible()

  // Signing in before verifying is refused and offers to resend the link.
  await signIn(page, email, 'a strong password')
  await expect(page.getByText(/Email not verified/).first()).toBeVisible()
  await page.getByRole('button', { name: 'Resend verification email' }).click()
  await expect(page.getByText('Verification email resent. Please check your inbox.')).toBeVisible()

  // The admin reads the outbox in the app and opens the newest link for that address.
  const adminContext = await browser.newContext()
  const admin = await adminContext.newPage()
  await signIn(admin, ADMIN.email, ADMIN.password)
  await expect(admin).toHaveURL(/\/admin$/)
  const row = admin.getByTestId('outbox-list').getByRole('listitem').filter({ hasText: email }).first()
  await expect(row).toBeVisible()
  const link = await row.getByTestId('outbox-link').getAttribute('href')
  expect(link).toContain('/api/v1/email/verify/')
  await adminContext.close()

  await page.goto(link!)
  await expect(page).toHaveURL(/\/login$/)
  await expect(page.getByText('Email verified successfully')).toBeVisible()

  await page.getByLabel('Email').fill(email.toUpperCase())
  await page.getByLabel('Password').fill('a strong password')
  await page.getByRole('button', { name: 'Login', exact: true }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByRole('heading', { name: 'Welcome, Edith Tester' })).toBeVisible()
  await expect(page.getByTestId('balance')).toHaveText('$1.00') // the starter credit
  await signOut(page)

  // Signed out for real: the dashboard sends us back to login with a return URL.
  await page.goto('/dashboard/account')
  await expect(page).toHaveURL(/\/login\?returnUrl=%2Fdashboard%2Faccount$/)
})

test('the admin signs in and lands on /admin; a user is kept out of /admin', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password)
  await expect(page).toHaveURL(/\/admin$/)
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible()
  // Wide screens: a narrow rail that expands on hover, with the avatar initial, name and plan.
  const sidebar = page.getByRole('complementary', { name: 'Main navigation' })
  expect((await sidebar.boundingBox())!.width).toBeLessThan(100)
  await sidebar.hover()
  await expect(page.getByText('Free plan')).toBeVisible()
  await expect.poll(async () => (await sidebar.boundingBox())!.width).toBeGreaterThan(200)
  await expect(page.getByTestId('sidebar-user-name')).toHaveText('Admin')
  await signOut(page)

  await signIn(page, DEMO.email, DEMO.password)
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/admin')
  await expect(page).toHaveURL(/\/dashboard$/)
  // Already signed in: the login page sends a user home.
  await page.goto('/login')
  await expect(page).toHaveURL(/\/dashboard$/)
})

test('login validation, wrong password, return URL and unknown paths', async ({ page }) => {
  await page.goto('/nowhere/at/all')
  await expect(page).toHaveURL(/\/$/)

  await page.goto('/dashboard/account')
  await expect(page).toHaveURL(/returnUrl=%2Fdashboard%2Faccount/)
  const login = page.getByRole('button', { name: 'Login', exact: true })
  // Enabled while invalid: Enter on the empty form shows the errors instead of doing nothing.
  await expect(login).toBeEnabled()
  await page.getByLabel('Email').press('Enter')
  await expect(page.getByText('Email is required')).toBeVisible()
  await expect(page.getByText('Password is required')).toBeVisible()
  await expect(page.getByLabel('Email')).toBeFocused()
  await page.getByLabel('Email').fill('not-an-email')
  await page.getByLabel('Password').fill('123')
  await page.getByLabel('Email').focus()
  await expect(page.getByText('Invalid email format')).toBeVisible()
  await expect(page.getByText('Password must be at least 6 characters')).toBeVisible()

  await page.getByLabel('Email').fill(DEMO.email)
  await page.getByLabel('Password').fill('wrong password')
  await login.click()
  // In the toast and beside the e-mail field.
  await expect(page.getByText('These credentials do not match our records.')).toHaveCount(2)
  await expect(page.locator('#email-error')).toHaveText('These credentials do not match our records.')

  await page.getByLabel('Password').fill(DEMO.password)
  await login.click()
  await expect(page).toHaveURL(/\/dashboard\/account$/)
  await expect(page.getByRole('heading', { name: 'Account settings' })).toBeVisible()
})

test('no Google button where Google sign-in is not configured; the API says so clearly', async ({ page }) => {
  await page.goto('/login')
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Continue with Google' })).toHaveCount(0)
  const start = await page.request.get('/api/v1/auth/google')
  expect(start.status()).toBe(503)
  expect((await start.json()).message).toMatch(/Google sign-in is not configured/)
  await page.goto('/login?error=google_login_failed')
  await expect(page.getByText('Google login failed. Please try again.')).toBeVisible()
})

test('sidebar on a phone: menu button, backdrop, closes on item click', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await signIn(page, DEMO.email, DEMO.password)
  await expect(page).toHaveURL(/\/dashboard$/)
  const sidebar = page.getByRole('complementary', { name: 'Main navigation' })
  await expect(sidebar).not.toBeInViewport()
  await page.getByRole('button', { name: 'Open menu' }).click()
  await expect(sidebar).toBeInViewport()
  await page.getByTestId('sidebar-backdrop').click({ position: { x: 370, y: 400 } })
  await expect(sidebar).not.toBeInViewport()
  await page.getByRole('button', { name: 'Open menu' }).click()
  await sidebar.getByRole('link', { name: 'Account' }).click()
  await expect(page).toHaveURL(/\/dashboard\/account$/)
  await expect(sidebar).not.toBeInViewport()
})
