import { expect, test, type Page } from '@playwright/test'
import { DEMO, openFromSidebar, signIn } from './helpers'

const PROMPT = 'You are Sarah from Bright Dental. Remind the customer about their cleaning tomorrow at 3 pm and ask if the time still works.'

interface Caption {
  callId: string
  speaker: 'assistant' | 'user'
  key: string
  text: string
  at: string
  receivedAt: number
}

/** Every transcript-live message the page's socket receives, with when it arrived. */
function recordCaptions(page: Page): Caption[] {
  const seen: Caption[] = []
  page.on('websocket', (socket) => {
    socket.on('framereceived', ({ payload }) => {
      const text = typeof payload === 'string' ? payload : payload.toString()
      const match = /^42(\[.*\])$/s.exec(text) // engine.io message + socket.io event
      if (!match) return
      const [event, data] = JSON.parse(match[1] ?? '[]') as [string, Omit<Caption, 'receivedAt'>]
      if (event === 'transcript-live') seen.push({ ...data, receivedAt: Date.now() })
    })
  })
  return seen
}

async function placeCall(page: Page, number: string): Promise<void> {
  await openFromSidebar(page, 'Send Call')
  await expect(page.getByTestId('send-balance')).toBeVisible()
  await page.getByLabel('What should the agent do?').fill(PROMPT)
  await page.getByLabel('Phone number').fill(number)
  const maxDuration = page.getByLabel('Max duration')
  await maxDuration.focus()
  await page.keyboard.press('Home')
  await page.keyboard.press('ArrowRight') // 2 minutes
  await page.getByRole('button', { name: 'Send Call' }).click()
  await expect(page.getByRole('button', { name: 'Stop Call' })).toBeEnabled()
}

test('the agent\'s words reach the browser as they are spoken', async ({ page }) => {
  test.setTimeout(120_000)
  const captions = recordCaptions(page)
  await signIn(page, DEMO.email, DEMO.password)
  await expect(page).toHaveURL(/\/dashboard$/)
  await placeCall(page, '+15551230000')

  const transcript = page.getByTestId('live-transcript')
  await expect(transcript.locator('[data-speaker="agent"][data-in-flight]').first()).toBeVisible({ timeout: 60_000 })
  await expect(transcript.locator('[data-speaker="agent"]:not([data-in-flight])').first()).toBeVisible({ timeout: 60_000 })
  const greeting = captions.filter((c) => c.speaker === 'assistant' && c.key === 'a1')
  expect(greeting.length).toBeGreaterThan(2)
  // The first word arrives within 1 s of the moment its audio started playing to the callee
  // (the server's playback clock; tests/calls/test_sandbox_calls.py checks that clock against
  // what the simulated callee actually heard)...
  const first = greeting[0]!
  expect(first.receivedAt - Date.parse(first.at)).toBeLessThan(1000)
  // ...and the line grows word by word while it is spoken, rather than arriving whole.
  expect(greeting.at(-1)!.text.startsWith(first.text)).toBe(true)
  expect(first.text.split(' ').length).toBeLessThan(greeting.at(-1)!.text.split(' ').length)
  expect(greeting.at(-1)!.receivedAt - first.receivedAt).toBeGreaterThan(500)
  await page.screenshot({ path: 'test-results/live-captions.png', fullPage: true })
  await page.getByRole('button', { name: 'Stop Call' }).click()
  await expect(page.getByText('Call stopped successfully')).toBeVisible()
})

// Coming back must show the transcript from a fresh fetch: a cached copy of the live calls from
// the ringing (Recent Calls') once lost the first agent line here (useLiveCall's pick-up).
test('a call is not lost by leaving Send Call: the user comes back to its transcript and stops it', async ({ page }) => {
  test.setTimeout(150_000)
  await signIn(page, DEMO.email, DEMO.password)
  await expect(page).toHaveURL(/\/dashboard$/)
  await placeCall(page, '+15551230000')
  const transcript = page.getByTestId('live-transcript')
  const firstLine = transcript.locator('[data-speaker="agent"]:not([data-in-flight])').first()
  await expect(firstLine).toBeVisible({ timeout: 60_000 })
  const said = (await firstLine.locator('p').last().textContent()) ?? ''

  // Away to Call Logs, then home: the dashboard says a call is going on and leads back to it.
  await page.getByRole('link', { name: 'Call Logs' }).click()
  await expect(page).toHaveURL(/\/dashboard\/call-logs$/)
  await page.getByRole('link', { name: 'Home' }).click()
  const banner = page.getByRole('status', { name: 'Calls in progress' })
  await expect(banner).toContainText('+15551230000')
  await banner.getByRole('link', { name: 'Open live call' }).click()

  // Send Call has it again: the transcript so far, the prompt, a running timer, Stop enabled.
  await expect(page).toHaveURL(/\/dashboard\/send-call$/)
  await expect(page.getByText('Your call to +15551230000 is still in progress.')).toBeVisible()
  await expect(transcript.getByText(said, { exact: false }).first()).toBeVisible()
  await expect(page.getByLabel('What should the agent do?')).toHaveValue(PROMPT)
  await expect(page.getByRole('button', { name: 'Stop Call' })).toBeEnabled()
  await expect(page.getByTestId('call-timer')).not.toHaveText('00:00')

  // A reload keeps it too, and the socket carries on: new lines still arrive.
  await page.reload()
  await expect(transcript.getByText(said, { exact: false }).first()).toBeVisible()
  const before = await transcript.locator('[data-speaker]').count()
  await expect.poll(() => transcript.locator('[data-speaker]').count(), { timeout: 60_000 }).toBeGreaterThan(before)
  await page.screenshot({ path: 'test-results/live-call-picked-up.png', fullPage: true })

  await page.getByRole('button', { name: 'Stop Call' }).click()
  await expect(page.getByText('Call stopped successfully')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Send Call' })).toBeVisible()
  // Recent Calls shows the call as ended without a reload.
  await expect(page.getByTestId('recent-calls').getByText('+15551230000').first()).toBeVisible({ timeout: 30_000 })
})
