import { expect, test } from '@playwright/test'

test.describe('public site', () => {
  test('the landing page has every section, at desktop and phone widths', async ({ page }) => {
    for (const [name, size] of [
      ['1440', { width: 1440, height: 900 }],
      ['390', { width: 390, height: 844 }],
    ] as const) {
      await page.setViewportSize(size)
      await page.goto('/')
      await expect(page.getByRole('heading', { level: 1 })).toContainText('AI agents that call your customers to')
      await expect(page.getByText('$0.49 per minute connected, rounded up to the minute, from a prepaid balance', { exact: true })).toBeVisible()
      for (const id of ['what', 'how-it-works', 'features', 'pricing', 'subscribe', 'enterprise']) {
        await expect(page.locator(`#${id}`)).toHaveCount(1)
      }
      await expect(page.locator('dd', { hasText: 'median reply time, measured' })).toBeVisible()
      await expect(page.getByTestId('impact-source')).toContainText('docs/performance.md')
      for (const claim of ['2,000+', '99.99%', '85%', '68%', '1:42']) await expect(page.getByText(claim)).toHaveCount(0)
      await expect(page.getByText('Step 1: Customize Your Agent')).toBeVisible()
      await expect(page.getByText('Step 2: Deploy & Scale')).toBeVisible()
      await expect(page.getByTestId('plan-25').getByRole('link', { name: 'Add $25' })).toHaveAttribute('href', '/dashboard/billing?amount=25')
      await expect(page.getByTestId('plan-enterprise').getByRole('link', { name: 'Contact Sales' })).toHaveAttribute('href', '/enterprise')
      await page.screenshot({ path: `test-results/landing-${name}.png`, fullPage: true })
    }
  })

  test('every Get Started leads to sign-up', async ({ page }) => {
    await page.goto('/')
    const starts = page.getByRole('link', { name: /Get Started/ })
    await expect(starts).toHaveCount(2) // the navbar's and the hero's (the phone menu's is closed)
    for (const link of await starts.all()) await expect(link).toHaveAttribute('href', '/register')
    await page.getByRole('main').getByRole('link', { name: /Get Started/ }).click()
    await expect(page).toHaveURL(/\/register$/)
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto('/')
    await page.getByRole('button', { name: 'Open menu' }).click()
    await page.locator('#mobile-menu').getByRole('link', { name: 'Get Started' }).click()
    await expect(page).toHaveURL(/\/register$/)
  })

  test('the demo call plays its recording with the transcript appearing in time', async ({ page }) => {
    await page.goto('/')
    await page.locator('#how-it-works').scrollIntoViewIfNeeded()
    await page.getByRole('button', { name: /^Play the demo call \(\d:\d\d\)$/ }).click()
    const player = page.getByTestId('demo-player')
    const log = player.getByRole('log', { name: 'Demo call transcript' })
    // Headless Chromium plays the MP3 (muted or not, the clock runs): the first lines appear.
    await expect(log.locator('[data-speaker="agent"]').first()).toBeVisible({ timeout: 15_000 })
    await expect.poll(() => player.locator('audio').evaluate((a: HTMLAudioElement) => a.currentTime), { timeout: 15_000 }).toBeGreaterThan(1)
    await page.screenshot({ path: 'test-results/landing-demo-call.png' })
    await player.getByRole('button', { name: 'Pause the demo call' }).click()
    await expect(player.getByRole('button', { name: 'Play the demo call' })).toBeVisible()
  })

  test('navbar turns translucent, scroll-to-top appears, the mobile menu locks the page', async ({ page }) => {
    await page.goto('/')
    const navbar = page.getByTestId('navbar')
    await expect(navbar).toHaveAttribute('data-scrolled', 'false')
    await expect(page.getByRole('button', { name: 'Scroll to top' })).toHaveCount(0)
    await page.evaluate(() => window.scrollTo(0, 900))
    await expect(navbar).toHaveAttribute('data-scrolled', 'true')
    await page.getByRole('button', { name: 'Scroll to top' }).click()
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeLessThan(300)

    await page.setViewportSize({ width: 390, height: 844 })
    await page.getByRole('button', { name: 'Open menu' }).click()
    await expect.poll(() => page.evaluate(() => document.body.style.overflow)).toBe('hidden')
    await page.locator('#mobile-menu').getByRole('link', { name: 'Blogs' }).click()
    await expect(page).toHaveURL(/\/blogs$/)
    await expect.poll(() => page.evaluate(() => document.body.style.overflow)).toBe('')
    // A section link from another page goes home first.
    await page.getByRole('button', { name: 'Open menu' }).click()
    await page.locator('#mobile-menu').getByRole('button', { name: 'How it Works' }).click()
    await expect(page).toHaveURL(/\/$/)
  })

  test('a free test call is refused for a bad number; placed, the phone mockup shows it ring, connect, talk and end', async ({ page }) => {
    test.setTimeout(240_000)
    const handshakes: string[] = []
    page.on('websocket', (ws) => handshakes.push(ws.url()))
    await page.goto('/')
    // What the landing promises is the server's limit (CALLWRIGHT_TEST_CALL_MAX_MINUTES, 2).
    await expect(page.getByTestId('test-call-terms')).toHaveText('Free, up to 2 minutes, no sign-up.')
    const phone = page.getByLabel('Your phone number')
    await phone.fill('0123')
    await page.getByRole('button', { name: 'Try a Free Test Call' }).click()
    await expect(page.getByText('Please enter a valid phone number (e.g., +1234567890).')).toBeVisible()
    await expect(page.getByText('Please enter a valid phone number.')).toBeVisible() // the toast

    // A sandbox number that answers as a talking person (src/callwright/sandbox/numbers.py).
    expect(handshakes).toEqual([]) // the landing page opens no socket of its own
    await phone.fill('+15551230000')
    await page.getByRole('button', { name: 'Try a Free Test Call' }).click()
    await expect(page.getByText('Test call initiated! You will receive a call shortly.')).toBeVisible()
    const mockup = page.getByTestId('phone-mockup')
    const status = mockup.getByTestId('call-status')
    const progress = mockup.getByTestId('test-call-progress')
    await expect(status).toHaveText('Ringing...')
    await expect(progress).toHaveAttribute('data-phase', 'connected', { timeout: 60_000 })
    await expect(status).toHaveText(/^Connected \d\d:\d\d$/)
    // The timer runs while connected (read in the call's first seconds: a short call can be
    // over by the time both sides' lines are kept).
    const first = await status.textContent()
    await expect(status).not.toHaveText(first ?? '', { timeout: 5_000 })
    const transcript = mockup.getByRole('log', { name: 'Call transcript' })
    // Kept lines from both sides (captions in flight carry data-in-flight).
    await expect(transcript.locator('[data-speaker="assistant"]:not([data-in-flight])').first()).toBeVisible({ timeout: 60_000 })
    await expect(transcript.locator('[data-speaker="user"]:not([data-in-flight])').first()).toBeVisible({ timeout: 60_000 })
    await expect(progress).toHaveAttribute('data-phase', 'ended', { timeout: 180_000 })
    await expect(status).toHaveText('Call ended')
    await expect(mockup.getByTestId('call-outcome')).toContainText(/Duration \d\d:\d\d/)
    expect(await transcript.locator('[data-speaker="assistant"]').count()).toBeGreaterThan(1)
    await expect(transcript.locator('[data-in-flight]')).toHaveCount(0)
    // The mockup followed the call on a socket opened for it.
    expect(handshakes.some((u) => u.includes('/socket.io/'))).toBe(true)
    await expect(mockup.getByRole('link', { name: 'Sign up to place your own calls' })).toHaveAttribute('href', '/register')
    await page.screenshot({ path: 'test-results/landing-test-call-ended.png' })
    await mockup.getByRole('button', { name: 'Start another test call' }).click()
    await expect(phone).toBeFocused()
    await expect(phone).toHaveValue('')
  })

  test('the subscribe form shows its messages and succeeds', async ({ page }) => {
    await page.goto('/#subscribe')
    const form = page.getByRole('form', { name: 'Subscribe' })
    const submit = form.getByRole('button', { name: 'Subscribe Now' })
    // Never disabled to hide what is wrong: submitting an empty form shows every message.
    await expect(submit).toBeEnabled()
    await submit.click()
    await expect(form.getByRole('alert')).toHaveText('Please fill all required fields correctly.')
    await expect(form.getByText('Email is required')).toBeVisible()
    await form.getByLabel('Email').fill('not-an-email')
    await expect(form.getByText('Invalid email format')).toBeVisible()
    await form.getByLabel('Phone').fill('+1 (555)')
    await expect(form.getByText('Invalid phone number format')).toBeVisible()
    await form.getByLabel('Message').fill('x')
    await form.getByLabel('Message').fill('')
    await expect(form.getByText('Message is required')).toBeVisible()
    await form.getByLabel('Email').fill('reader@example.com')
    await form.getByLabel('Phone').fill('+1 555-0100')
    await form.getByLabel('Message').fill('Please keep me posted.')
    await expect(submit).toBeEnabled()
    await submit.click()
    await expect(form.getByRole('status')).toContainText('Thank you for your message!')
    await expect(form.getByLabel('Email')).toHaveValue('')
  })

  test('the blog loads more posts and opens one', async ({ page }) => {
    await page.goto('/blogs')
    await expect(page.getByRole('heading', { name: 'Latest Articles' })).toBeVisible()
    await expect(page.getByTestId('post-card')).toHaveCount(4)
    await page.getByRole('button', { name: 'Load More Articles' }).click()
    await expect(page.getByTestId('post-card')).toHaveCount(5)
    await expect(page.getByRole('button', { name: 'Load More Articles' })).toBeDisabled()
    await page.screenshot({ path: 'test-results/blog-home.png', fullPage: true })
    await page.getByTestId('post-card').first().getByRole('link', { name: 'Read More' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await expect(page.getByText('2 minute read')).toBeVisible()
    await expect(page.locator('.post-content p').first()).toBeVisible()
    await page.screenshot({ path: 'test-results/blog-post.png', fullPage: true })
    await page.getByRole('link', { name: '← Back to Blogs' }).click()
    await expect(page).toHaveURL(/\/blogs$/)
    await page.goto('/blogs/999999')
    await expect(page.getByRole('alert').filter({ hasText: 'Post not found.' })).toBeVisible()
  })

  test('the enterprise form validates and succeeds', async ({ page }) => {
    await page.goto('/enterprise')
    await expect(page.getByRole('heading', { name: 'Contact Our Enterprise Team' })).toBeVisible()
    const form = page.getByRole('form', { name: 'Enterprise application' })
    await form.getByLabel('Website').fill('example.com')
    await expect(form.getByText('Invalid URL format (must start with http:// or https://)')).toBeVisible()
    await form.getByLabel('Phone calls per month').fill('10')
    await expect(form.getByText('Must be at least 25 calls')).toBeVisible()
    await expect(form.getByRole('button', { name: 'Submit Application' })).toBeEnabled()
    await form.getByLabel('Name').fill('Grace Hopper')
    await form.getByLabel('Email').fill('grace@example.com')
    await form.getByLabel('Website').fill('https://example.com')
    await form.getByLabel('Phone calls per month').fill('500')
    await form.getByLabel('Use case').fill('Appointment reminders')
    await form.getByLabel('Agency').check()
    await form.getByLabel('Message').fill('We would like a demo.')
    await form.getByRole('button', { name: 'Submit Application' }).click()
    await expect(form.getByRole('status')).toContainText('within 24 hours')
    await page.screenshot({ path: 'test-results/enterprise.png', fullPage: true })
  })
})
