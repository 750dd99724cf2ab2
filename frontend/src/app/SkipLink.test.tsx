import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { MODE_KEY } from '@/features/system/api'
import { saveSession } from '@/lib/session'
import { calls, server, url } from '@/testing/msw'
import { renderApp } from '@/testing/render'

const EMPTY_PAGE = { success: true, data: [], pagination: { current_page: 1, last_page: 1, per_page: 10, total: 0 } }

/** The first Tab reaches "Skip to content", which moves the focus to the page's main. */
async function skipsToMain() {
  const user = userEvent.setup()
  await user.tab()
  const skip = screen.getByRole('link', { name: 'Skip to content' })
  expect(skip).toHaveFocus()
  await user.keyboard('{Enter}')
  expect(screen.getByRole('main')).toHaveFocus()
  expect(screen.getByRole('main')).toHaveAttribute('id', 'main')
}

describe('Skip to content, on every layout', () => {
  it('the public site', async () => {
    renderApp('/')
    await screen.findByRole('heading', { level: 1 })
    await skipsToMain()
  })

  it('the user area', async () => {
    saveSession('1|x', { id: 1, name: 'Grace', email: 'g@example.com', role: 'user' })
    renderApp('/dashboard')
    await screen.findByRole('heading', { level: 1 })
    await skipsToMain()
  })

  it('the admin area', async () => {
    saveSession('1|x', { id: 1, name: 'Root', email: 'root@example.com', role: 'admin' })
    server.use(
      http.get(url('admin/form-inbox/unread-count'), () => HttpResponse.json({ success: true, data: { unread: 0 } })),
      http.get(url('admin/do-not-call'), () => HttpResponse.json(EMPTY_PAGE)),
    )
    renderApp('/admin/do-not-call')
    await screen.findByRole('heading', { level: 1 })
    await skipsToMain()
  })
})

/** The server's mode answer, held until the test lets it go. */
function holdMode(mode: Record<string, unknown>): () => void {
  let release: () => void = () => undefined
  const gate = new Promise<void>((resolve) => (release = resolve))
  server.use(
    http.get(url('system/mode'), async () => {
      await gate
      return HttpResponse.json({ success: true, data: mode })
    }),
  )
  return release
}

describe('The notices above every signed-in page', () => {
  it('are drawn with the first frame once this browser knows the mode, so nothing moves when it is read again', async () => {
    localStorage.setItem(MODE_KEY, JSON.stringify({ carrier: 'sandbox', brain: 'offline', llm_model: null }))
    // The server never answers in this test (an answer after it ended would write the mode
    // into the next test's storage).
    holdMode({ carrier: 'sandbox', brain: 'offline', llm_model: null })
    saveSession('1|x', { id: 1, name: 'Grace', email: 'g@example.com', role: 'user' })
    renderApp('/dashboard')
    // Before the server has answered: the remembered mode already placed the notice above the page.
    expect(await screen.findByTestId('notice-sandbox')).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument()
  })

  it('hold the page back the first time, until the mode is read, then draw both together', async () => {
    const answer = holdMode({ carrier: 'sandbox', brain: 'llm', llm_model: 'x' })
    saveSession('1|x', { id: 1, name: 'Grace', email: 'g@example.com', role: 'user' })
    renderApp('/dashboard')
    await waitFor(() => expect(calls.some((c) => c.path === 'system/mode')).toBe(true))
    expect(screen.getByRole('main')).toHaveTextContent(/^$/) // the page waits for the mode
    answer()
    expect(await screen.findByTestId('notice-sandbox')).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument()
    expect(JSON.parse(localStorage.getItem(MODE_KEY) ?? '{}')).toMatchObject({ carrier: 'sandbox' })
  })
})
