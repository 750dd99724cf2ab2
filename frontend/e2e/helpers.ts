import { expect, type Page } from '@playwright/test'

export const ADMIN = { email: 'admin@callwright.app', password: 'E2eAdmin123' }
export const DEMO = { email: 'demo@callwright.app', password: 'E2eDemo1234' }

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Login', exact: true }).click()
}

export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Logout' }).click()
  await expect(page).toHaveURL(/\/login$/)
}

/** Follows one of the sidebar's links, then moves the pointer onto the page, as a person does
 * on the way to what they came for: the sidebar widens while hovered, over the page's left
 * column, and a pointer left on it would keep it wide. */
export async function openFromSidebar(page: Page, name: string): Promise<void> {
  await page.locator('#sidebar').getByRole('link', { name, exact: true }).click()
  await page.mouse.move(900, 420)
}

/** The signed-in user's API, from inside the page (bearer token and CSRF as the app sends them). */
export async function api<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, path, body }) => {
      await fetch('/api/v1/sanctum/csrf-cookie', { credentials: 'include' })
      const xsrf = document.cookie
        .split('; ')
        .find((c) => c.startsWith('XSRF-TOKEN='))
        ?.split('=')[1]
      const response = await fetch(`/api/v1/${path}`, {
        method,
        credentials: 'include',
        headers: {
          Accept: 'application/json',
          'Content-Type': 'application/json',
          Authorization: `Bearer ${localStorage.getItem('api_token')}`,
          'X-XSRF-TOKEN': decodeURIComponent(xsrf ?? ''),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      return (await response.json()) as T
    },
    { method, path, body },
  )
}

/** Waits until none of the signed-in user's recent calls is still going: the specs of a group
 * share the demo user, and a call another spec left going holds its maximum cost from the
 * balance (a call sent meanwhile can be refused: "Available: $0.00"). */
export async function earlierCallsOver(page: Page): Promise<void> {
  const live = () =>
    page.evaluate(async () => {
      const userId = localStorage.getItem('userId')
      const response = await fetch(`/api/v1/user/${userId}/calls?per_page=20`, { headers: { Authorization: `Bearer ${localStorage.getItem('api_token')}` } })
      const calls = ((await response.json()) as { data: { status: string }[] }).data
      return calls.filter((c) => ['queued', 'ringing', 'in-progress'].includes(c.status)).length
    })
  await expect.poll(live, { timeout: 120_000 }).toBe(0)
}
