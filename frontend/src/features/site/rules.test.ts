import { describe, expect, it } from 'vitest'
import { retryWhen } from './rules'

const clock = (d: Date) => d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })

describe('retryWhen (a refused test call)', () => {
  const now = new Date(2026, 10, 27, 10, 53, 0)

  it('says how long and at what time of the visitor’s day', () => {
    expect(retryWhen(2520, now)).toBe(`Try again in 42 minutes, at ${clock(new Date(2026, 10, 27, 11, 35))}.`)
    expect(retryWhen(30, now)).toBe(`Try again in 1 minute, at ${clock(new Date(2026, 10, 27, 10, 53, 30))}.`)
  })

  it('counts hours past an hour and says when it is tomorrow', () => {
    expect(retryWhen(20 * 3600, now)).toBe(`Try again in 20 h 00 min, at ${clock(new Date(2026, 10, 28, 6, 53))} tomorrow.`)
  })
})
