/** Every page, as each kind of visitor sees it: axe finds no serious or critical accessibility
 * violation (issue 26 item 6), and no signed-in page moves under the reader as it loads: its
 * Cumulative Layout Shift stays under 0.1 (issue 26 item 8; web.dev's "good"). One browser
 * context per role, signed in once; every page is a fresh load, as a bookmark or a reload
 * gives it. */
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { ADMIN, api, DEMO, signIn } from './helpers'

const CLS_BUDGET = 0.1
/** How long a page is watched for shifts after the network is quiet (its late data, fonts,
 * charts). */
const SETTLE_MS = 1500

/** Installed before any page script: Cumulative Layout Shift as browsers report it, the
 * largest session window (shifts less than 1 s apart, 5 s at most), input-driven shifts left
 * out. */
function trackLayoutShift(): void {
  const w = window as unknown as { __cls: number; __shifts: string[] }
  w.__cls = 0
  w.__shifts = []
  /** What moved, for the failure message: "0.052 div.grid.gap-4 (y 212 -> 318)". */
  const describe = (entry: PerformanceEntry & { value: number; sources?: { node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[] }) =>
    (entry.sources ?? [])
      .map((source) => {
        const el = source.node instanceof Element ? source.node : source.node?.parentElement
        const name = el ? `${el.tagName.toLowerCase()}${Array.from(el.classList).slice(0, 4).map((c) => `.${c}`).join('')}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''}` : '?'
        return `${entry.value.toFixed(3)} ${name} (y ${Math.round(source.previousRect.y)} -> ${Math.round(source.currentRect.y)}, h ${Math.round(source.previousRect.height)} -> ${Math.round(source.currentRect.height)})`
      })
      .join('; ')
  let windowValue = 0
  let first = 0
  let last = 0
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
      if (entry.hadRecentInput) continue
      if (entry.value >= 0.005) w.__shifts.push(describe(entry))
      if (windowValue && entry.startTime - last < 1000 && entry.startTime - first < 5000) {
        windowValue += entry.value
      } else {
        windowValue = entry.value
        first = entry.startTime
      }
      last = entry.startTime
      w.__cls = Math.max(w.__cls, windowValue)
    }
  }).observe({ type: 'layout-shift', buffered: true })
}


const PROMPT = 'You are Sarah from Bright Dental. Remind the customer about their cleaning tomorrow at 3 pm.'

/** A sandbox call that answers and hangs up after a few seconds, placed by the signed-in user. */
async function placeCall(page: Page): Promise<string> {
  const userId = await page.evaluate(() => Number(localStorage.getItem('userId')))
  const sent = await api<{ callId: string }>(page, 'POST', 'send-call', { userId, phone: '+15005550005', prompt: PROMPT, max_duration: 1 })
  expect(sent.callId).toBeTruthy()
  return sent.callId
}

async function callEnded(page: Page, callId: string): Promise<void> {
  await expect
    .poll(async () => (await api<{ data: { completed?: boolean } }>(page, 'GET', `call-details/${callId}`)).data.completed, { timeout: 90_000 })
    .toBe(true)
}

const callPageShown = async (page: Page) => void (await page.getByTestId('call-page').waitFor())

interface Finding {
  path: string
  violations: string[]
  cls: number | null
  /** The larger shifts and what moved, to say where a budget was lost. */
  shifts: string[]
}

/** Load `path` afresh, let it settle, then read its layout shift and run axe on it. */
async function audit(page: Page, path: string, ready?: (page: Page) => Promise<void>): Promise<Finding> {
  await page.goto(path)
  await page.waitForLoadState('networkidle')
  if (ready) await ready(page)
  await page.waitForTimeout(SETTLE_MS)
  const { cls, shifts } = await page.evaluate(() => {
    const w = window as unknown as { __cls?: number; __shifts?: string[] }
    return { cls: w.__cls ?? null, shifts: w.__shifts ?? [] }
  })
  const results = await new AxeBuilder({ page }).analyze()
  const violations = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')})`)
  return { path, violations, cls, shifts }
}

function check(finding: Finding, { layout }: { layout: boolean }): void {
  expect.soft(finding.violations, `axe on ${finding.path}`).toEqual([])
  if (layout) {
    expect.soft(finding.cls, `layout shift on ${finding.path}`).not.toBeNull()
    expect.soft(finding.cls ?? 1, `layout shift on ${finding.path}: ${finding.shifts.join(' | ')}`).toBeLessThan(CLS_BUDGET)
  }
}

test.describe('accessibility and layout shift on every page', () => {
  test.beforeEach(async ({ context }) => {
    await context.addInitScript(trackLayoutShift)
  })

  test('public pages', async ({ page }) => {
    test.setTimeout(180_000)
    await page.goto('/')
    const posts = await page.evaluate(async () => (await (await fetch('/api/v1/posts')).json()) as { data: { posts: { id: number }[] } })
    const post = posts.data.posts[0]
    expect(post, 'a fresh install seeds blog posts').toBeDefined()
    for (const path of ['/', '/blogs', `/blogs/${post.id}`, '/enterprise', '/login', '/register', '/forgot-password']) {
      check(await audit(page, path), { layout: false })
    }
  })

  test('the signed-in user area, a call’s page included', async ({ page }) => {
    test.setTimeout(300_000)
    await signIn(page, DEMO.email, DEMO.password)
    await expect(page).toHaveURL(/\/dashboard$/)
    // A call (its page is read once it has ended), an agent and a campaign to show.
    const callId = await placeCall(page)
    const agent = await api<{ data: { id: string } }>(page, 'POST', 'agents', { name: 'Axe reminder', prompt: PROMPT, max_duration: 1 })
    expect(agent.data.id).toBeTruthy()
    const campaign = await api<{ data: { id: string } }>(page, 'POST', 'campaigns', { name: 'Axe cleanings', agent_id: agent.data.id })
    expect(campaign.data.id).toBeTruthy()
    const flow = await api<{ data: { id: string } }>(page, 'POST', 'flows', { name: 'Axe confirmation', starter: 'appointment' })
    expect(flow.data.id).toBeTruthy()

    const pages = [
      '/dashboard',
      '/dashboard/account',
      '/dashboard/send-call',
      '/dashboard/analysis',
      '/dashboard/call-logs',
      '/dashboard/agents',
      '/dashboard/agents/new',
      `/dashboard/agents/${agent.data.id}`,
      `/dashboard/agents/${agent.data.id}/tests`,
      '/dashboard/campaigns',
      '/dashboard/campaigns/new',
      `/dashboard/campaigns/${campaign.data.id}`,
      `/dashboard/campaigns/${campaign.data.id}/setup`,
      '/dashboard/flows',
      `/dashboard/flows/${flow.data.id}`,
      `/dashboard/flows/${flow.data.id}/tests`,
      '/dashboard/developers',
      '/dashboard/do-not-call',
      '/dashboard/sandbox',
      '/dashboard/billing',
    ]
    for (const path of pages) check(await audit(page, path), { layout: true })

    await callEnded(page, callId)
    check(await audit(page, `/dashboard/calls/${callId}`, callPageShown), { layout: true })
  })

  test('the admin area, a call’s page included', async ({ page, browser }) => {
    test.setTimeout(300_000)
    // A user's call for the admin's call page.
    const user = await browser.newContext()
    const userPage = await user.newPage()
    await signIn(userPage, DEMO.email, DEMO.password)
    await expect(userPage).toHaveURL(/\/dashboard$/)
    const callId = await placeCall(userPage)
    await callEnded(userPage, callId)
    await user.close()

    await signIn(page, ADMIN.email, ADMIN.password)
    await expect(page).toHaveURL(/\/admin$/)
    const pages = [
      '/admin',
      '/admin/user-management',
      '/admin/analysis',
      '/admin/call-logs',
      '/admin/reports',
      '/admin/blogs',
      '/admin/inbox',
      '/admin/do-not-call',
      '/admin/test-call-task',
      '/admin/system',
    ]
    for (const path of pages) check(await audit(page, path), { layout: true })
    check(await audit(page, `/admin/calls/${callId}`, callPageShown), { layout: true })
  })

  test('sign-in with the keyboard only, every control showing where the focus is', async ({ page }) => {
    await page.goto('/login')
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor()
    /** The focused element and whether it draws a focus indicator (outline or ring). */
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement
        const style = getComputedStyle(el)
        const visible = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none'
        return { name: el.getAttribute('aria-label') ?? el.id ?? '', text: (el.textContent ?? '').trim(), tag: el.tagName, visible }
      })
    await page.keyboard.press('Tab')
    expect(await focused()).toMatchObject({ text: 'Skip to content', visible: true })
    const before: string[] = []
    for (let i = 0; i < 4 && (await focused()).name !== 'email'; i++) {
      await page.keyboard.press('Tab')
      before.push(`${(await focused()).tag} ${(await focused()).text}`)
    }
    expect(await focused()).toMatchObject({ name: 'email', visible: true })
    expect(before.length, `stops before the e-mail field: ${before.join(', ')}`).toBeLessThanOrEqual(2) // the brand panel's home link
    await page.keyboard.type(DEMO.email)
    await page.keyboard.press('Tab')
    expect(await focused()).toMatchObject({ name: 'password', visible: true })
    await page.keyboard.type(DEMO.password)
    await page.keyboard.press('Tab')
    expect(await focused()).toMatchObject({ tag: 'BUTTON', text: 'Login', visible: true })
    await page.keyboard.press('Tab')
    expect(await focused()).toMatchObject({ tag: 'A', text: 'Forgot password?', visible: true })
    await page.keyboard.press('Shift+Tab')
    await page.keyboard.press('Shift+Tab')
    await page.keyboard.press('Enter') // in the password field
    await expect(page).toHaveURL(/\/dashboard$/)
    // The user area: Skip to content first, and it lands in the page.
    await page.getByRole('heading', { level: 1 }).first().waitFor()
    await page.keyboard.press('Tab')
    expect(await focused()).toMatchObject({ text: 'Skip to content', visible: true })
    await page.keyboard.press('Enter')
    expect(await focused()).toMatchObject({ tag: 'MAIN' })
    // Every control the keyboard reaches in the page looks different while it has the focus
    // (its ring or outline), compared with itself once the focus has left it. Blurring keeps
    // the browser's place in the tab order, so the next Tab goes on from there.
    const changes = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement
        if (!el.closest('main')) return null
        const look = () => {
          const s = getComputedStyle(el)
          return `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor} | ${s.boxShadow}`
        }
        const withFocus = look()
        el.blur()
        return { what: `${el.tagName} ${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}`, shows: look() !== withFocus }
      })
    let checked = 0
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press('Tab')
      const now = await changes()
      if (now === null) break // past the page's last control
      expect.soft(now.shows, `focus visible on ${now.what}`).toBe(true)
      checked += 1
    }
    expect(checked).toBeGreaterThan(3)
  })
})
