import { readFile } from 'node:fs/promises'
import { expect, test } from '@playwright/test'
import { DEMO, openFromSidebar, signIn } from './helpers'

test('a number is listed by hand and from a CSV file, the report shows refused rows, Send Call refuses it, the export has it, it is removed', async ({ page }, info) => {
  await signIn(page, DEMO.email, DEMO.password)
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.getByRole('link', { name: 'Do not call' }).click()
  await expect(page).toHaveURL(/\/dashboard\/do-not-call$/)

  const table = page.getByTestId('dnc-table')
  await page.getByLabel('Phone number').fill('415 555 0188')
  await page.getByRole('button', { name: 'Add number' }).click()
  await expect(page.getByText('Enter the number in international form, starting with "+" (e.g., +15551234567).')).toBeVisible()
  await page.getByLabel('Phone number').fill('+1 (415) 555-0188')
  await page.getByLabel('Note (optional)').fill('Asked on the phone')
  await page.getByRole('button', { name: 'Add number' }).click()
  await expect(table.getByText('+14155550188')).toBeVisible()
  await expect(table.getByText('Asked on the phone')).toBeVisible()

  await page.getByTestId('dnc-import-file').setInputFiles({
    name: 'numbers.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('Name,Phone\nAda,+1 415 555 0188\nBob,+14155550189\nCy,555-0102\n'),
  })
  const report = page.getByTestId('dnc-import-report')
  await expect(report).toContainText('Import finished: 1 added, 1 already listed, 1 refused.')
  await expect(report.getByTestId('dnc-refused')).toContainText('555-0102')
  await expect(table.getByText('+14155550189')).toBeVisible()
  await page.screenshot({ path: info.outputPath('do-not-call.png'), fullPage: true })

  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export CSV' }).click()
  const csv = await readFile((await (await download).path())!, 'utf-8')
  expect(csv.split('\n')[0].trim()).toBe('phone_number,source,note,call_id,evidence,created_at')
  expect(csv).toContain('+14155550188,manual,Asked on the phone')
  expect(csv).toContain('+14155550189,import')

  // Send Call refuses a listed number with the reason.
  await openFromSidebar(page, 'Send Call')
  await page.getByLabel('What should the agent do?').fill('You are Sarah from Bright Dental. Remind the customer about their cleaning tomorrow at 3 pm.')
  await page.getByLabel('Phone number').fill('+14155550188')
  await page.getByRole('button', { name: 'Send Call' }).click()
  await expect(page.getByText('This number is on your do-not-call list.').first()).toBeVisible()

  // Removed, it can be called again.
  await page.getByRole('link', { name: 'Do not call' }).click()
  await page.getByRole('button', { name: 'Remove +14155550188' }).click()
  await page.getByRole('dialog', { name: 'Remove this number?' }).getByRole('button', { name: 'Remove' }).click()
  await expect(page.getByText('Number removed from the do-not-call list.')).toBeVisible()
  await expect(table.getByText('+14155550188')).toHaveCount(0)
  await page.getByRole('button', { name: 'Remove +14155550189' }).click()
  await page.getByRole('dialog', { name: 'Remove this number?' }).getByRole('button', { name: 'Remove' }).click()
  await expect(page.getByText('No numbers on the list yet. Numbers you add here are never called.')).toBeVisible()
})
