import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { saveSession } from '@/lib/session'
import { calls, server, url } from '@/testing/msw'
import { renderApp } from '@/testing/render'

const PROFILE = {
  id: 1,
  name: 'grace',
  email: 'g@example.com',
  role: 'user',
  balance: 1,
  email_verified_at: '2026-11-01T00:00:00Z',
  created_at: '2026-11-01T00:00:00Z',
  google_linked: false,
  has_password: true,
  timezone: 'Europe/Berlin' as string | null,
}

/** The fake server's profile: GET reads it, PUT user/timezone stores a known zone. */
function fakeProfile(timezone: string | null) {
  let stored = { ...PROFILE, timezone }
  server.use(
    http.get(url('user/profile'), () => HttpResponse.json({ success: true, data: stored })),
    http.put(url('user/timezone'), async ({ request }) => {
      const { timezone: zone } = (await request.json()) as { timezone: string }
      if (zone === 'Antarctica/Troll') {
        return HttpResponse.json({ success: false, message: 'Unknown time zone.', errors: { timezone: ['Unknown time zone.'] } }, { status: 422 })
      }
      stored = { ...stored, timezone: zone }
      return HttpResponse.json({ success: true, message: 'Time zone updated successfully', data: stored })
    }),
  )
}

/** The browser's zone, as Intl reports it. */
function browserIn(zone: string) {
  const real = Intl.DateTimeFormat.prototype.resolvedOptions
  vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockImplementation(function (this: Intl.DateTimeFormat) {
    return { ...real.call(this), timeZone: zone }
  })
}

const timeZonePuts = () => calls.filter((c) => c.method === 'PUT' && c.path === 'user/timezone')

beforeEach(() => saveSession('1|x', { id: 1, name: 'grace', email: 'g@example.com', role: 'user' }))
afterEach(() => vi.restoreAllMocks())

describe('The user\'s time zone', () => {
  it('a profile without a zone gets the browser\'s, stored once, and the Account page shows it', async () => {
    browserIn('Asia/Tokyo')
    fakeProfile(null)
    renderApp('/dashboard/account')
    const select = await screen.findByLabelText('Your time zone')
    await waitFor(() => expect(select).toHaveValue('Asia/Tokyo'))
    expect(timeZonePuts()).toHaveLength(1)
    await waitFor(() => expect(timeZonePuts()[0]?.body).toEqual({ timezone: 'Asia/Tokyo' }))
    expect(select).toHaveAccessibleDescription(/it is .* there now/)
    // Moving between pages does not store it again.
    await userEvent.setup().click(screen.getAllByRole('link', { name: 'Home' })[0]!)
    await screen.findByRole('heading', { name: /Welcome/ })
    expect(timeZonePuts()).toHaveLength(1)
  })

  it('a profile with a zone keeps it: nothing is stored', async () => {
    browserIn('Asia/Tokyo')
    fakeProfile('America/Chicago')
    renderApp('/dashboard/account')
    expect(await screen.findByLabelText('Your time zone')).toHaveValue('America/Chicago')
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(timeZonePuts()).toHaveLength(0)
  })

  it('the Account page changes the zone from the list, with a toast', async () => {
    fakeProfile('Europe/Berlin')
    const user = userEvent.setup()
    renderApp('/dashboard/account')
    const select = await screen.findByLabelText('Your time zone')
    expect(select).toHaveValue('Europe/Berlin')
    const options = within(select).getAllByRole('option').map((o) => o.getAttribute('value'))
    expect(options).toEqual(expect.arrayContaining(['America/New_York', 'Europe/Berlin', 'UTC']))
    await user.selectOptions(select, 'America/New_York')
    await user.click(screen.getByRole('button', { name: 'Save time zone' }))
    expect(await screen.findByText('Time zone updated successfully')).toBeInTheDocument()
    expect(timeZonePuts().map((c) => c.body)).toEqual([{ timezone: 'America/New_York' }])
    expect(select).toHaveValue('America/New_York')
  })

  it('refuses an empty choice beside the field, and puts the server\'s refusal there too', async () => {
    browserIn('Asia/Tokyo')
    fakeProfile('Europe/Berlin')
    const user = userEvent.setup()
    renderApp('/dashboard/account')
    const select = await screen.findByLabelText('Your time zone')
    await user.selectOptions(select, '')
    await user.click(screen.getByRole('button', { name: 'Save time zone' }))
    expect(await screen.findByText('Choose your time zone')).toBeInTheDocument()
    expect(select).toHaveAttribute('aria-invalid', 'true')
    expect(select).toHaveAccessibleDescription('Choose your time zone')
    expect(timeZonePuts()).toHaveLength(0)

    // A zone the server's database lacks (browsers list more than some servers know): its message.
    await user.selectOptions(select, 'Antarctica/Troll')
    await user.click(screen.getByRole('button', { name: 'Save time zone' }))
    await waitFor(() => expect(select).toHaveAccessibleDescription('Unknown time zone.'))
    expect(screen.getAllByText('Unknown time zone.')).toHaveLength(2) // beside the field, and the toast
    expect(timeZonePuts().map((c) => c.body)).toEqual([{ timezone: 'Antarctica/Troll' }])
  })
})
