import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { saveSession } from '@/lib/session'
import { server, url } from '@/testing/msw'
import { renderApp } from '@/testing/render'

const FORMAT = 'Enter the number in international form, starting with "+" (e.g., +15551234567).'
const entry = (id: number, phone: string, extra: Record<string, unknown> = {}) => ({ id, phone_number: phone, source: 'manual', note: null, call_id: null, evidence: null, created_at: '2026-11-20T10:00:00Z', ...extra })

/** A list held in memory behind the user's do-not-call routes, the way the server answers. */
function fakeList(initial: ReturnType<typeof entry>[]) {
  const rows = [...initial]
  const seen: { search: string | null; page: string | null }[] = []
  const imported: { type: string; form: FormData }[] = []
  server.use(
    http.get(url('do-not-call'), ({ request }) => {
      const q = new URL(request.url).searchParams
      seen.push({ search: q.get('search'), page: q.get('page') })
      const search = q.get('search') ?? ''
      const data = rows.filter((r) => r.phone_number.includes(search))
      return HttpResponse.json({ success: true, data, pagination: { current_page: 1, last_page: 1, per_page: 20, total: data.length } })
    }),
    http.post(url('do-not-call'), async ({ request }) => {
      const body = (await request.json()) as { phone_number: string; note: string | null }
      const phone = body.phone_number.replace(/[\s().-]/g, '')
      if (phone === '+19995550000') return HttpResponse.json({ success: false, message: 'The given data was invalid.', errors: { phone_number: ['Server says no.'] } }, { status: 422 })
      const row = entry(rows.length + 10, phone, { note: body.note })
      rows.unshift(row)
      return HttpResponse.json({ success: true, data: row, created: true })
    }),
    http.delete(url('do-not-call/:id'), ({ params }) => {
      const at = rows.findIndex((r) => r.id === Number(params.id))
      rows.splice(at, 1)
      return HttpResponse.json({ success: true, message: 'Number removed from the do-not-call list.' })
    }),
    http.post(url('do-not-call/import'), async ({ request }) => {
      imported.push({ type: request.headers.get('content-type') ?? '', form: await request.formData() })
      return HttpResponse.json({
        success: true,
        data: { added: 1, already_listed: 1, refused: [{ row: 3, value: '555-0102', reason: FORMAT }], refused_count: 1 },
      })
    }),
  )
  return { rows, seen, imported }
}

describe('DoNotCallPage', () => {
  beforeEach(() => saveSession('1|x', { id: 1, name: 'grace', email: 'g@example.com', role: 'user' }))

  it('lists the numbers with where they came from, and the evidence of an opt-out', async () => {
    fakeList([entry(1, '+14155550100', { note: 'Asked by e-mail' }), entry(2, '+14155550111', { source: 'opt-out', call_id: 'abcdef12-3456', evidence: 'please stop calling me' })])
    renderApp('/dashboard/do-not-call')
    const table = await screen.findByTestId('dnc-table')
    await within(table).findByText('+14155550100')
    expect(within(table).getByText('Asked by e-mail')).toBeInTheDocument()
    expect(within(table).getByText('Opted out in a call')).toBeInTheDocument()
    expect(within(table).getByText('please stop calling me')).toBeInTheDocument()
    expect(within(table).getByText('Call abcdef12')).toBeInTheDocument()
    expect(screen.getByTestId('dnc-total')).toHaveTextContent('2 numbers')
  })

  it('shows the empty state, checks the number before sending it, and adds it', async () => {
    const { rows } = fakeList([])
    renderApp('/dashboard/do-not-call')
    expect(await screen.findByText('No numbers on the list yet. Numbers you add here are never called.')).toBeInTheDocument()
    const user = userEvent.setup()
    const phone = screen.getByLabelText('Phone number')
    await user.click(screen.getByRole('button', { name: 'Add number' }))
    expect(await screen.findByText('Enter a phone number')).toBeInTheDocument()
    await user.type(phone, '415 555 0100')
    await user.click(screen.getByRole('button', { name: 'Add number' }))
    expect(await screen.findByText(FORMAT)).toBeInTheDocument()
    expect(rows).toHaveLength(0)
    await user.clear(phone)
    await user.type(phone, '+1 (415) 555-0100')
    await user.type(screen.getByLabelText('Note (optional)'), 'Asked twice')
    await user.click(screen.getByRole('button', { name: 'Add number' }))
    expect(await screen.findByText('+14155550100 added to the do-not-call list')).toBeInTheDocument()
    expect(await within(screen.getByTestId('dnc-table')).findByText('+14155550100')).toBeInTheDocument()
    expect(rows[0]).toMatchObject({ phone_number: '+14155550100', note: 'Asked twice' })
    expect(phone).toHaveValue('')
  })

  it("shows the server's message under the field and keeps what was typed", async () => {
    fakeList([])
    renderApp('/dashboard/do-not-call')
    const user = userEvent.setup()
    await user.type(await screen.findByLabelText('Phone number'), '+19995550000')
    await user.click(screen.getByRole('button', { name: 'Add number' }))
    expect(await screen.findByText('Server says no.')).toBeInTheDocument()
    expect(screen.getByLabelText('Phone number')).toHaveValue('+19995550000')
  })

  it('searches, and removes a number only after confirming', async () => {
    const { rows, seen } = fakeList([entry(1, '+14155550100'), entry(2, '+442079460000')])
    renderApp('/dashboard/do-not-call')
    const table = await screen.findByTestId('dnc-table')
    await within(table).findByText('+442079460000')
    const user = userEvent.setup()
    await user.type(screen.getByRole('searchbox', { name: 'Search numbers' }), '4420')
    await waitFor(() => expect(within(table).queryByText('+14155550100')).not.toBeInTheDocument())
    expect(seen.at(-1)).toEqual({ search: '4420', page: '1' })
    await user.click(within(table).getByRole('button', { name: 'Remove +442079460000' }))
    const dialog = await screen.findByRole('dialog', { name: 'Remove this number?' })
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(rows).toHaveLength(2)
    await user.click(within(table).getByRole('button', { name: 'Remove +442079460000' }))
    await user.click(within(await screen.findByRole('dialog', { name: 'Remove this number?' })).getByRole('button', { name: 'Remove' }))
    expect(await screen.findByText('Number removed from the do-not-call list.')).toBeInTheDocument()
    expect(rows.map((r) => r.phone_number)).toEqual(['+14155550100'])
    expect(await screen.findByText('No listed number matches your search.')).toBeInTheDocument()
  })

  it('imports a CSV file and shows the report with every refused row', async () => {
    const { imported } = fakeList([])
    renderApp('/dashboard/do-not-call')
    await screen.findByText('No numbers on the list yet. Numbers you add here are never called.')
    const user = userEvent.setup()
    const file = new File(['phone\n+14155550101\n555-0102\n'], 'numbers.csv', { type: 'text/csv' })
    await user.upload(screen.getByTestId('dnc-import-file'), file)
    const report = await screen.findByTestId('dnc-import-report')
    expect(imported).toHaveLength(1)
    expect(imported[0].type).toMatch(/^multipart\/form-data; boundary=/)
    expect(imported[0].form.has('file')).toBe(true)
    expect(report).toHaveTextContent('Import finished: 1 added, 1 already listed, 1 refused.')
    const refused = within(report).getByTestId('dnc-refused')
    expect(within(refused).getByText('555-0102')).toBeInTheDocument()
    expect(within(refused).getByText(FORMAT)).toBeInTheDocument()
    await user.click(within(report).getByRole('button', { name: 'Dismiss' }))
    expect(screen.queryByTestId('dnc-import-report')).not.toBeInTheDocument()
  })
})
