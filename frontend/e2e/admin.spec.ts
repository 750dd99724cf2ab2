import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test'
import { ADMIN, DEMO, signIn } from './helpers'

/** A signed-in API client for `who`, doing what the SPA does (CSRF cookie, bearer token). */
async function apiAs(baseURL: string, who: { email: string; password: string }) {
  const ctx: APIRequestContext = await playwrightRequest.newContext({ baseURL })
  const xsrf = async () => {
    await ctx.get('/api/v1/sanctum/csrf-cookie')
    const cookie = (await ctx.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')
    return decodeURIComponent(cookie?.value ?? '')
  }
  const login = await ctx.post('/api/v1/login', { headers: { 'X-XSRF-TOKEN': await xsrf() }, data: who })
  expect(login.ok()).toBeTruthy()
  const body = await login.json()
  const headers = async () => ({ Authorization: `Bearer ${body.token}`, 'X-XSRF-TOKEN': await xsrf() })
  return { ctx, user: body.user as { id: number; name: string }, headers }
}


async function signInAdmin(page: Page) {
  await signIn(page, ADMIN.email, ADMIN.password)
  await expect(page).toHaveURL(/\/admin$/)
}

test.describe.configure({ mode: 'serial' })

test('the admin tops up the demo user: the balance and the ledger change', async ({ page, baseURL }) => {
  const demo = await apiAs(baseURL!, DEMO)
  const before = (await (await demo.ctx.get('/api/v1/user/profile', { headers: await demo.headers() })).json()).data.balance as number

  await signInAdmin(page)
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible()
  await expect(page.getByText('Total Balance Used')).toBeVisible()
  await page.screenshot({ path: 'test-results/admin-home.png', fullPage: true })

  await page.getByRole('link', { name: 'Users' }).click()
  await expect(page).toHaveURL(/\/admin\/user-management$/)
  await page.getByPlaceholder('Search by name or email...').fill('demo@')
  const row = page.getByTestId('users-table').locator('tr', { hasText: DEMO.email })
  await expect(row).toHaveCount(1)
  await expect(page.getByTestId('users-table').locator('tbody tr')).toHaveCount(1)
  await page.screenshot({ path: 'test-results/admin-users.png', fullPage: true })
  await row.getByRole('button', { name: /^Add balance for/ }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog.getByRole('heading', { name: /^Add Balance for / })).toBeVisible()
  await dialog.getByLabel('Amount to Add ($)').fill('0')
  await dialog.getByRole('button', { name: 'Add Balance' }).click()
  await expect(dialog.getByText('Amount must be greater than 0')).toBeVisible()
  await dialog.getByLabel('Amount to Add ($)').fill('12.34')
  await dialog.getByRole('button', { name: 'Add Balance' }).click()
  await expect(page.getByText('Added $12.34 to user balance!')).toBeVisible()
  await expect(row).toContainText(`$${(before + 12.34).toFixed(2)}`)

  const after = (await (await demo.ctx.get('/api/v1/user/profile', { headers: await demo.headers() })).json()).data.balance as number
  expect(after).toBeCloseTo(before + 12.34, 2)

  // Add New User: the password policy, then a new account that can sign in.
  await page.getByRole('button', { name: 'Add New User' }).click()
  await dialog.getByLabel('Name').fill('Grace Hopper')
  await dialog.getByLabel('Email').fill('grace@callwright.app')
  await dialog.getByLabel('Password').fill('weakpass')
  await dialog.getByRole('button', { name: 'Add User' }).click()
  await expect(page.getByText('Password must contain at least one uppercase letter, one lowercase letter, one number, and be at least 8 characters long')).toBeVisible()
  await dialog.getByLabel('Password').fill('Gr4ceHopper')
  await dialog.getByRole('button', { name: 'Add User' }).click()
  await expect(page.getByText('Added user successfuly.')).toBeVisible()
})

test('the admin writes a post that shows on the public blog', async ({ page }) => {
  await signInAdmin(page)
  await page.goto('/admin/blogs')
  await page.getByRole('button', { name: 'Add New Post' }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog.getByRole('button', { name: 'Create Post' })).toBeEnabled()
  await dialog.getByLabel('Title').fill('Callwright admin e2e post')
  await dialog.getByLabel('Description').fill('Written in the TipTap editor')
  const editor = dialog.locator('#post-content')
  await editor.click()
  await page.keyboard.type('Hello from the editor. ')
  await dialog.getByRole('button', { name: 'Bold' }).click()
  await page.keyboard.type('Bold words')
  await expect(editor.locator('strong')).toHaveText('Bold words')
  await page.screenshot({ path: 'test-results/admin-post-editor.png', fullPage: true })
  await dialog.getByRole('button', { name: 'Create Post' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByTestId('posts-table')).toContainText('Callwright admin e2e post')

  await page.goto('/blogs')
  await expect(page.getByText('Callwright admin e2e post')).toBeVisible()
  await page.getByRole('link', { name: /Read More/ }).first().click()
  await expect(page.getByRole('heading', { name: 'Callwright admin e2e post' })).toBeVisible()
  await expect(page.locator('strong', { hasText: 'Bold words' })).toBeVisible()

  // Delete asks first; the post leaves the table and the blog.
  await page.goto('/admin/blogs')
  page.once('dialog', (d) => {
    expect(d.message()).toBe('Are you sure you want to delete this post?')
    void d.accept()
  })
  await page.getByRole('button', { name: 'Delete Callwright admin e2e post' }).first().click()
  await expect(page.getByTestId('posts-table')).not.toContainText('Callwright admin e2e post')
  await page.goto('/blogs')
  await expect(page.getByTestId('post-card').first()).toBeVisible()
  await expect(page.getByText('Callwright admin e2e post')).toHaveCount(0)
})

test('the admin reads and marks an inbox message; the unread dot goes', async ({ page, baseURL }) => {
  const anon = await playwrightRequest.newContext({ baseURL })
  await anon.get('/api/v1/sanctum/csrf-cookie')
  const xsrf = decodeURIComponent((await anon.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '')
  const sent = await anon.post('/api/v1/contact', { headers: { 'X-XSRF-TOKEN': xsrf }, data: { email: 'reader@example.com', phone: '+1 555 0100', message: 'Please call me about pricing' } })
  expect(sent.ok()).toBeTruthy()

  await signInAdmin(page)
  await expect(page.getByTestId('dot-/admin/inbox')).toHaveCount(1)
  await page.goto('/admin/inbox')
  const row = page.getByTestId('inbox-table').locator('tr', { hasText: 'reader@example.com' })
  await row.getByRole('button', { name: /View details/ }).click()
  await expect(page.getByTestId('submission-details')).toContainText('Please call me about pricing')
  await page.keyboard.press('Escape')
  await row.getByRole('button', { name: /Mark .* as read/ }).click()
  await expect(page.getByText('Submission marked as read')).toBeVisible()
  await expect(row.getByRole('button', { name: /Mark .* as read/ })).toBeDisabled()
  await expect(page.getByTestId('dot-/admin/inbox')).toHaveCount(0)
})

test('the admin finds a call by search, reads its transcript and plays it', async ({ page, baseURL }) => {
  test.setTimeout(180_000)
  const demo = await apiAs(baseURL!, DEMO)
  const placed = await demo.ctx.post('/api/v1/send-call', {
    headers: await demo.headers(),
    data: { userId: demo.user.id, phone: '+15551230000', prompt: 'You are Sam from Acme. Confirm the delivery window for tomorrow morning.', max_duration: 1 },
  })
  expect(placed.ok()).toBeTruthy()
  const callId = (await placed.json()).callId as string
  await expect
    .poll(
      async () => {
        const calls = (await (await demo.ctx.get(`/api/v1/user/${demo.user.id}/calls?per_page=5`, { headers: await demo.headers() })).json()).data as { call_id: string; completed: boolean; record_url: string | null }[]
        const call = calls.find((c) => c.call_id === callId)
        return Boolean(call?.completed && call.record_url)
      },
      { timeout: 150_000, intervals: [2000] },
    )
    .toBe(true)

  await signInAdmin(page)
  await page.goto('/admin/call-logs')
  await page.getByPlaceholder('Search by user, from, to, status, or call ID...').fill(callId.slice(0, 8))
  const table = page.getByTestId('admin-calls')
  await expect(table.locator('tbody tr')).toHaveCount(1)
  const row = table.locator('tbody tr').first()
  await expect(row).toContainText(callId.slice(0, 8))
  await expect(row).toContainText(DEMO.email)
  await expect(row.getByTestId('call-kind')).toHaveText('placed from Send Call')
  await page.screenshot({ path: 'test-results/admin-call-logs.png', fullPage: true })
  await row.getByRole('button', { name: 'View transcript' }).click()
  const dialog = page.getByRole('dialog', { name: 'Call Transcript' })
  await expect(dialog.getByTestId('transcript-lines').locator('li').first()).toBeVisible()
  await page.keyboard.press('Escape')
  await row.getByRole('button', { name: 'Play recording' }).click()
  const player = page.getByTestId(`player-${callId}`)
  await expect(player).toBeVisible()
  await expect.poll(() => player.evaluate((a) => (a as HTMLAudioElement).duration), { timeout: 15_000 }).toBeGreaterThan(1)
  await row.getByRole('button', { name: /^Copy call ID/ }).hover()
  await expect(row.getByRole('button', { name: /^Copy call ID/ })).toHaveAttribute('title', callId)

  // Sorting by cost keeps the table and marks the column.
  await page.getByRole('button', { name: 'Cost' }).click()
  await expect(page.locator('th[aria-sort="descending"]')).toContainText('Cost')
})

test('the admin edits the test-call prompt and sees the counters', async ({ page }) => {
  await signInAdmin(page)
  await page.goto('/admin/test-call-task')
  await expect(page.getByTestId('test-call-counters')).toContainText('Test Calls Today')
  await expect(page.getByTestId('test-call-counters')).toContainText('Test Calls This Week')
  const prompt = page.getByLabel('Prompt')
  await expect(prompt).not.toHaveValue('')
  await expect(page.getByRole('button', { name: 'Update Prompt' })).toBeDisabled()
  const text = 'You are Ava from Callwright. Greet the caller, explain the product in two sentences and end politely.'
  await prompt.fill(text)
  await expect(page.getByText(`Maximum 1000 characters. Current: ${text.length}/1000`)).toBeVisible()
  await page.getByRole('button', { name: 'Update Prompt' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByRole('alertdialog')).toHaveCount(0)
  await page.getByRole('button', { name: 'Update Prompt' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click()
  await expect(page.getByText('Test call prompt updated successfully.')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Update Prompt' })).toBeDisabled()
  await page.reload()
  await expect(page.getByLabel('Prompt')).toHaveValue(text)
  await page.screenshot({ path: 'test-results/admin-test-call-prompt.png', fullPage: true })

  // The analytics page shows the eight statistics and the nine charts, plus the calls per outcome.
  await page.goto('/admin/analysis')
  await expect(page.getByTestId('overall-stats').locator('> div')).toHaveCount(8)
  await expect(page.locator('[data-testid^="chart-"]')).toHaveCount(10)
  await expect(page.getByTestId('chart-Calls by Hour of Day').locator('tr')).toHaveCount(24)
  await page.screenshot({ path: 'test-results/admin-analysis.png', fullPage: true })
})
