import { expect, test } from '@playwright/test'
import { ADMIN, DEMO, signIn } from './helpers'

test('a new user registers (a field error beside its field), verifies, and starts with the starter credit', async ({ page, browser }) => {
  const email = `starter-${Date.now()}@example.com`
  await page.goto('/register')
  await expect(page.getByRole('button', { name: 'Sign up with Google' })).toHaveCount(0) // no Google here

  // An address already taken: the server's message shows beside the e-mail field.
  await page.getByLabel('Full name').fill('Stella Starter')
  await page.getByLabel('Email').fill(DEMO.email)
  await page.getByLabel('Password', { exact: true }).fill('a strong password')
  await page.getByLabel('Confirm password').fill('a strong password')
  await page.getByRole('button', { name: 'Create account' }).click()
  const emailField = page.getByLabel('Email')
  await expect(emailField).toHaveAttribute('aria-invalid', 'true')
  await expect(emailField).toHaveAttribute('aria-describedby', 'email-error')
  await expect(page.locator('#email-error')).toHaveText('The email has already been taken.')
  await page.screenshot({ path: test.info().outputPath('register-field-error.png') })

  await emailField.fill(email)
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible()

  // The verification link, from the outbox the admin reads in the app.
  const adminContext = await browser.newContext()
  const admin = await adminContext.newPage()
  await signIn(admin, ADMIN.email, ADMIN.password)
  const row = admin.getByTestId('outbox-list').getByRole('listitem').filter({ hasText: email }).first()
  const link = await row.getByTestId('outbox-link').getAttribute('href')
  await adminContext.close()
  await page.goto(link!)
  await expect(page.getByText('Email verified successfully')).toBeVisible()

  await signIn(page, email, 'a strong password')
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByTestId('balance')).toHaveText('$1.00')
  await expect(page.getByRole('link', { name: 'Add funds', exact: true })).toHaveAttribute('href', '/dashboard/billing')
  await expect(page.getByRole('link', { name: 'add funds on the Billing page' })).toHaveAttribute('href', '/dashboard/billing')
  await page.screenshot({ path: test.info().outputPath('dashboard-starter-credit.png'), fullPage: true })

  // A number written the way people write it is tidied, not refused; what is no number is
  // refused beside the field.
  await page.goto('/dashboard/send-call')
  const phone = page.getByLabel('Phone number')
  await page.getByLabel('What should the agent do?').fill('Remind Stella about her appointment tomorrow.')
  await phone.fill('555-0100')
  await page.getByRole('button', { name: 'Send Call' }).click()
  await expect(page.locator('#phone-error')).toHaveText('Phone number must start with "+" followed by 10-15 digits (e.g., +15551234567)')
  await expect(phone).toHaveAttribute('aria-describedby', 'phone-error')
  await page.screenshot({ path: test.info().outputPath('send-call-phone-error.png'), fullPage: true })
  await phone.fill('(555) 123-0000')
  await phone.blur()
  await expect(phone).toHaveValue('+15551230000')
  await expect(page.locator('#phone-error')).toHaveCount(0)
  await expect(page.getByTestId('send-balance')).toHaveText('$1.00')

  // The starter credit pays for a first short call: the max duration starts at the 2 minutes
  // it holds ($0.98) and says so, and the call is placed as the form comes.
  await expect(page.getByLabel('Max duration')).toHaveValue('2')
  await expect(page.getByTestId('max-duration-fitted')).toContainText('Set to 2 min, the most your balance of $1.00 covers')
  await expect(page.getByTestId('balance-covers')).toHaveCount(0)
  await page.getByRole('button', { name: 'Send Call' }).click()
  await expect(page.getByTestId('send-balance')).toHaveText('$0.02')
  await expect(page.getByRole('button', { name: 'Stop Call' })).toBeEnabled()
  await page.getByRole('button', { name: 'Stop Call' }).click()
  await expect(page.getByText('Call stopped successfully')).toBeVisible()
})

test('the web app goes out precompressed, hashed assets cached for a year', async ({ page, request }) => {
  await page.goto('/')
  const script = await page.locator('script[type="module"]').first().getAttribute('src')
  expect(script).toMatch(/^\/assets\/.+\.js$/)
  const asset = await request.get(script!, { headers: { 'Accept-Encoding': 'br, gzip' } })
  expect(asset.headers()['content-encoding']).toBe('br')
  expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable')
  expect(asset.headers()['vary']).toContain('Accept-Encoding')
  const gzipped = await request.get(script!, { headers: { 'Accept-Encoding': 'gzip' } })
  expect(gzipped.headers()['content-encoding']).toBe('gzip')
  const index = await request.get('/', { headers: { 'Accept-Encoding': 'br, gzip' } })
  expect(index.headers()['cache-control']).toBe('no-cache')
})
