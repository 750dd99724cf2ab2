/** Display rules from the spec, in one place. */
import { PRICE_PER_MINUTE_CENTS } from './billing'

export function formatCurrency(dollars: number): string {
  return `$${(Number.isFinite(dollars) ? dollars : 0).toFixed(2)}`
}

/** Balance colour: 1 or more green; between 0 and 1 yellow; 0 or less red. */
export function balanceTone(balance: number): 'green' | 'yellow' | 'red' {
  if (balance >= 1) return 'green'
  if (balance > 0) return 'yellow'
  return 'red'
}

/** Green, yellow and red dark enough to read on white at any size (WCAG AA, 4.5:1). */
const BALANCE_TEXT = { green: 'text-emerald-700', yellow: 'text-amber-700', red: 'text-rose-600' } as const

/** The text colour class for a balance, by balanceTone. */
export function balanceTextClass(balance: number): string {
  return BALANCE_TEXT[balanceTone(balance)]
}

export function formatDateTime(iso: string): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return '—'
  return d.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })
}

export function formatDate(iso: string): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return '—'
  return d.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' })
}

export const COST_PER_MINUTE = PRICE_PER_MINUTE_CENTS / 100
export const LOW_BALANCE = 1

function seconds(value: number | string | null | undefined): number {
  const n = typeof value === 'string' ? Number.parseFloat(value) : value
  return typeof n === 'number' && Number.isFinite(n) ? n : 0
}

/** The seconds the spec's display and cost rules use: the duration minus 1 second, at least 0. */
function countedSeconds(duration: number | string | null | undefined): number {
  return Math.max(0, Math.floor(seconds(duration)) - 1)
}

/** A call's duration as m:ss, from the duration minus 1 second (the spec's rule); 0:00 if none. */
export function formatCallDuration(duration: number | string | null | undefined): string {
  const d = countedSeconds(duration)
  return `${Math.floor(d / 60)}:${String(d % 60).padStart(2, '0')}`
}

/** A call's whole length as m:ss, every second counted (a call's own page, where the same
 * seconds appear in its cost and its events). */
export function formatLength(duration: number | string | null | undefined): string {
  const d = Math.max(0, Math.floor(seconds(duration)))
  return `${Math.floor(d / 60)}:${String(d % 60).padStart(2, '0')}`
}

/** Cost: rounded-up minutes of (duration - 1 s) x $0.49, to 2 decimals. */
export function callCost(duration: number | string | null | undefined): number {
  const minutes = Math.ceil(countedSeconds(duration) / 60)
  return Math.round(minutes * COST_PER_MINUTE * 100) / 100
}

/** What a call of `maxMinutes` holds against the balance. */
export function requiredBalance(maxMinutes: number): number {
  return Math.round(maxMinutes * COST_PER_MINUTE * 100) / 100
}

/** mm:ss for the live timer and the settled duration. */
export function formatTimer(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds))
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`
}

/** Status colours: completed green, no-answer yellow, failed red; empty shows "Unknown". */
export function statusStyle(status: string | null | undefined): { label: string; tone: 'green' | 'yellow' | 'red' | 'slate' | 'blue' } {
  const value = (status ?? '').trim()
  if (!value) return { label: 'Unknown', tone: 'slate' }
  const key = value.toLowerCase()
  if (key === 'completed') return { label: value, tone: 'green' }
  if (key === 'no-answer' || key === 'no_answer') return { label: value, tone: 'yellow' }
  if (key === 'failed') return { label: value, tone: 'red' }
  if (key === 'in-progress' || key === 'ringing' || key === 'queued') return { label: value, tone: 'blue' }
  return { label: value, tone: 'slate' }
}

/** The seconds in "Call duration & price: {n}s", or null when they cannot be read. */
export function parseDurationMessage(message: string): number | null {
  const match = /Call duration & price:\s*(\d+(?:\.\d+)?)\s*s/.exec(message)
  return match ? Math.round(Number(match[1])) : null
}

/** hh:mm:ss of a transcript line. */
export function formatClock(iso: string): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  return d.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' })
}
