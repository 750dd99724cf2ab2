import { readFile } from 'node:fs/promises'
import { expect, test } from '@playwright/test'
import { ADMIN, DEMO, signIn, signOut } from './helpers'

test('a user adds $25 by card through the Card Element against localstripe, the balance rises when the webhook lands, the top-up is in the billing history and its CSV', async ({ page }, info) => {
  await signIn(page, DEMO.email, DEMO.password)
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.getByRole('link', { name: 'Billing' }).click()
  await expect(page).toHaveURL(/\/dashboard\/billing$/)
  // Whatever the specs before this one left on the demo user's balance, $25 more after.
  const available = page.getByTestId('balance-available')
  await expect(available).toHaveText(/^\$\d+\.\d\d$/)
  const before = Number((await available.textContent())!.replace(/[$,]/g, ''))
  const after = (before + 25).toFixed(2)
  await expect(page.getByTestId('payments-test-mode')).toBeVisible()

  // The amount is checked beside the field.
  const amount = page.getByLabel('Or type an amount (USD)')
  await amount.fill('2')
  await amount.blur()
  await expect(page.getByText('The smallest top-up is $5.')).toBeVisible()
  await page.getByRole('button', { name: '$25.00', exact: true }).click()
  await expect(page.getByRole('button', { name: '$25.00', exact: true })).toHaveAttribute('aria-pressed', 'true')

  // localstripe's stand-in Card Element: plain inputs in the page.
  const card = page.getByTestId('card-element')
  await card.getByPlaceholder('number').fill('4242424242424242')
  await card.getByPlaceholder('exp_month').fill('12')
  await card.getByPlaceholder('exp_year').fill('30')
  await card.getByPlaceholder('cvc').fill('123')
  await card.getByPlaceholder('postal_code').fill('94107')
  await page.getByLabel('Save this card for auto-recharge').check()
  await page.screenshot({ path: info.outputPath('billing-form.png'), fullPage: true })
  await page.getByRole('button', { name: 'Pay $25.00' }).click()

  await expect(page.getByTestId('top-up-status')).toContainText('$25.00 added to your balance', { timeout: 30_000 })
  await expect(available).toHaveText(`$${after}`)
  const history = page.getByTestId('billing-history')
  const row = history.locator('tr', { hasText: 'Top-up' }).first()
  await expect(row).toContainText('+$25.00')
  await expect(row).toContainText(`$${after}`)
  await expect(row).toContainText('Visa ending in 4242')

  // The saved card makes auto-recharge available.
  await expect(page.getByTestId('saved-card')).toHaveText('Visa ending in 4242')
  await page.getByLabel('Top up automatically').check()
  await page.getByLabel('When the balance falls under (USD)').fill('10')
  await page.getByLabel('Add (USD)').fill('25')
  await page.getByRole('button', { name: 'Save auto-recharge' }).click()
  await expect(page.getByText('Auto-recharge is on.')).toBeVisible()
  await page.screenshot({ path: info.outputPath('billing-paid.png'), fullPage: true })

  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export CSV' }).click()
  const csv = await readFile((await (await download).path())!, 'utf-8')
  expect(csv.split('\n')[0].trim()).toBe('date,kind,amount,balance_after,call_id,payment_reference,note')
  expect(csv).toMatch(new RegExp(`top_up,25\\.00,${after.replace('.', '\\.')},,pi_\\w+,card top-up \\(Visa ending in 4242\\)`))

  // An admin refunds it: once.
  await signOut(page)
  await signIn(page, ADMIN.email, ADMIN.password)
  await expect(page).toHaveURL(/\/admin$/)
  await page.goto('/admin/user-management')
  await page.getByRole('button', { name: 'Card top-ups of Demo User' }).first().click()
  const topUps = page.getByTestId('admin-top-ups')
  await expect(topUps).toContainText('Visa ending in 4242')
  await topUps.getByRole('button', { name: /^Refund \$25\.00/ }).click()
  await page.getByRole('button', { name: 'Refund', exact: true }).click()
  await expect(page.getByText('Refunded $25.00 to the card.')).toBeVisible()
  await expect(topUps).toContainText('Refunded')
  await expect(topUps.getByRole('button', { name: /^Refund/ })).toHaveCount(0)
  await page.screenshot({ path: info.outputPath('admin-refund.png') })
})

test('?amount= preselects the amount a plan links to', async ({ page }) => {
  await signIn(page, DEMO.email, DEMO.password)
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/dashboard/billing?amount=50')
  await expect(page.getByLabel('Or type an amount (USD)')).toHaveValue('50')
  await expect(page.getByRole('button', { name: 'Pay $50.00' })).toBeVisible()
})
