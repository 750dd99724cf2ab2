/** The top-up amount as the user types it: the same rules and messages as the server
 * (billing/payments.py cents_of), shown beside the field before anything is sent. */

export const PRESETS = [10, 25, 50, 100, 250]

const NUMBER_RE = /^\d+(\.\d+)?$/

export function dollars(value: number): string {
  return `$${value.toLocaleString('en-US')}`
}

/** The error for `text` as an amount between `min` and `max` dollars, or null when it is fine. */
export function amountError(text: string, min: number, max: number): string | null {
  const value = text.trim().replace(/^\$/, '').replace(/,/g, '')
  if (!value) return 'Enter an amount.'
  if (!NUMBER_RE.test(value)) return 'Enter an amount in dollars, like 25 or 25.50.'
  if ((value.split('.')[1] ?? '').length > 2) return 'Use at most 2 decimal places.'
  const amount = Number(value)
  if (amount < min) return `The smallest top-up is ${dollars(min)}.`
  if (amount > max) return `The largest top-up is ${dollars(max)}.`
  return null
}

/** The amount in dollars (call only when `amountError` is null). */
export function parseAmount(text: string): number {
  return Number(text.trim().replace(/^\$/, '').replace(/,/g, ''))
}

/** The presets a configured range allows. */
export function presetsWithin(min: number, max: number): number[] {
  return PRESETS.filter((p) => p >= min && p <= max)
}

/** The `?amount=NN` a link brought (a plan's price): kept only when it is a valid amount. */
export function amountFromQuery(raw: string | null, min: number, max: number): string | null {
  if (raw === null) return null
  return amountError(raw, min, max) === null ? String(parseAmount(raw)) : null
}

/** Auto-recharge's threshold: whole dollars, at least $1, at most the largest top-up. */
export function thresholdError(text: string, max: number): string | null {
  const value = text.trim().replace(/^\$/, '')
  if (!value) return 'Enter a threshold.'
  if (!/^\d+$/.test(value) || Number(value) < 1) return 'Enter whole dollars, like 10.'
  if (Number(value) > max) return `The threshold may be at most ${dollars(max)}.`
  return null
}
