import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { calls, server, url } from '@/testing/msw'
import { renderApp } from '@/testing/render'

const withGoogle = () => server.use(http.get(url('client-config'), () => HttpResponse.json({ sign_in: { google: true }, phone_region: 'US' })))

describe('social sign-in buttons', () => {
  it.each([
    ['/login', 'Login', 'Continue with Google'],
    ['/register', 'Create account', 'Sign up with Google'],
  ])('%s has no Google button on a server without Google sign-in', async (path, submit, google) => {
    renderApp(path)
    await screen.findByRole('button', { name: submit })
    await waitFor(() => expect(calls.some((c) => c.path === 'client-config')).toBe(true))
    expect(screen.queryByRole('button', { name: google })).not.toBeInTheDocument()
    expect(screen.queryByText('or')).not.toBeInTheDocument()
  })

  it.each([
    ['/login', 'Continue with Google'],
    ['/register', 'Sign up with Google'],
  ])('%s shows it where Google is configured, and it goes to Google', async (path, google) => {
    withGoogle()
    const assign = vi.fn()
    vi.stubGlobal('location', { ...window.location, assign, origin: window.location.origin, pathname: path, search: '' })
    server.use(http.get(url('auth/google'), () => HttpResponse.json({ success: true, redirect_url: 'https://accounts.google.com/o/oauth2/v2/auth?x=1' })))
    try {
      renderApp(path)
      await userEvent.setup().click(await screen.findByRole('button', { name: google }))
      await waitFor(() => expect(assign).toHaveBeenCalledWith('https://accounts.google.com/o/oauth2/v2/auth?x=1'))
    } finally {
      vi.unstubAllGlobals()
    }
  })
})

describe('register form errors', () => {
  it("shows the server's message beside the e-mail field, with aria-invalid and aria-describedby", async () => {
    const taken = 'The email has already been taken.'
    server.use(http.post(url('register'), () => HttpResponse.json({ success: false, message: taken, errors: { email: [taken] } }, { status: 422 })))
    renderApp('/register')
    const user = userEvent.setup()
    await user.type(await screen.findByLabelText('Full name'), 'Ada')
    await user.type(screen.getByLabelText('Email'), 'ada@example.com')
    await user.type(screen.getByLabelText('Password'), 'long enough')
    await user.type(screen.getByLabelText('Confirm password'), 'long enough')
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveAccessibleDescription(taken))
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getAllByText(taken)).toHaveLength(2) // beside the field and in the toast
  })

  it('checks each field beside it before sending', async () => {
    renderApp('/register')
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Create account' }))
    expect(await screen.findByText('Name is required')).toBeInTheDocument()
    expect(screen.getByLabelText('Full name')).toHaveAccessibleDescription('Name is required')
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Email is required')
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Password is required')
    expect(calls.some((c) => c.path === 'register')).toBe(false)
  })
})
