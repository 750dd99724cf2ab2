import { createHmac } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test } from '@playwright/test'
import { DEMO, signIn } from './helpers'

interface Received {
  headers: IncomingHttpHeaders
  body: string
}

/** A customer's receiver on loopback: it records every POST and answers 200. */
async function receiver(): Promise<{ server: Server; url: string; got: Received[] }> {
  const got: Received[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      got.push({ headers: req.headers, body })
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got }
}

/** Standard Webhooks: v1,base64(HMAC-SHA256(secret bytes, "{id}.{timestamp}.{body}")). */
function verifies(secret: string, r: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
  const signed = `${String(r.headers['webhook-id'])}.${String(r.headers['webhook-timestamp'])}.${r.body}`
  const expected = `v1,${createHmac('sha256', key).update(signed).digest('base64')}`
  return String(r.headers['webhook-signature']).split(' ').includes(expected)
}

test('a key is created and used on /v1, an endpoint receives the call events signed, the log resends, the key is revoked', async ({ page }) => {
  test.setTimeout(120_000)
  const hook = await receiver()
  try {
    await signIn(page, DEMO.email, DEMO.password)
    await expect(page).toHaveURL(/\/dashboard$/)
    await page.getByRole('link', { name: 'Developers' }).click()
    await expect(page).toHaveURL(/\/dashboard\/developers$/)

    // An API key, shown once.
    await page.getByRole('button', { name: 'Create key' }).click()
    let dialog = page.getByRole('dialog')
    await dialog.getByLabel('Name').fill('E2E key')
    await dialog.getByRole('button', { name: 'Create key' }).click()
    await expect(dialog.getByText("you won't see it again")).toBeVisible()
    const key = (await dialog.getByTestId('secret-once').locator('code').textContent())!.trim()
    expect(key).toMatch(/^cw_/)
    await dialog.getByRole('button', { name: 'Done' }).click()
    await expect(page.getByTestId('keys-table')).toContainText('E2E key')

    // An endpoint for every event, its secret shown once.
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    dialog = page.getByRole('dialog')
    await dialog.getByLabel('URL').fill(hook.url)
    await dialog.getByRole('button', { name: 'Add endpoint' }).click()
    const secret = (await dialog.getByTestId('secret-once').locator('code').textContent())!.trim()
    expect(secret).toMatch(/^whsec_/)
    await dialog.getByRole('button', { name: 'Done' }).click()

    // The key places a call on /v1 (a busy line: it ends at once).
    const placed = await page.request.post('/v1/calls', {
      headers: { authorization: key },
      data: { phone_number: '+15005550002', task: 'Remind the customer about their appointment.', max_duration: 1 },
    })
    expect(placed.status()).toBe(200)
    const { call_id: callId } = (await placed.json()) as { call_id: string }

    // The receiver gets call.queued, call.ended and call.analyzed, each verified with the endpoint's secret.
    await expect.poll(() => hook.got.map((r) => (JSON.parse(r.body) as { type: string }).type).sort(), { timeout: 60_000 }).toEqual(['call.analyzed', 'call.ended', 'call.queued'])
    for (const r of hook.got) {
      expect(verifies(secret, r)).toBe(true)
      expect((JSON.parse(r.body) as { data: { call_id: string } }).data.call_id).toBe(callId)
    }

    // The delivery log shows them delivered; one is opened and resent (same webhook-id).
    await page.reload()
    const log = page.getByTestId('deliveries-table')
    await expect(log.getByRole('row').filter({ hasText: 'call.ended' })).toContainText('delivered')
    await log.getByRole('row').filter({ hasText: 'call.ended' }).getByRole('button', { name: /Open delivery/ }).click()
    const details = page.getByTestId('delivery-details')
    await expect(details.getByRole('list', { name: 'Attempts' })).toContainText('200')
    const endedId = hook.got.find((r) => r.body.includes('"call.ended"'))!.headers['webhook-id']
    await expect(details).toContainText(String(endedId))
    await details.getByRole('button', { name: 'Resend' }).click()
    await expect.poll(() => hook.got.filter((r) => r.headers['webhook-id'] === endedId).length, { timeout: 30_000 }).toBe(2)
    await page.keyboard.press('Escape')

    // Revoked, the key is refused.
    await page.getByRole('button', { name: 'Revoke E2E key' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click()
    await expect(page.getByTestId('keys-table')).not.toContainText('E2E key')
    const refused = await page.request.get('/v1/voices', { headers: { authorization: key } })
    expect(refused.status()).toBe(401)
  } finally {
    hook.server.close()
  }
})
