import { describe, expect, it } from 'vitest'
import {
  balanceTone,
  callCost,
  formatCallDuration,
  formatCurrency,
  formatTimer,
  parseDurationMessage,
  requiredBalance,
  statusStyle,
} from './format'

describe('formatCurrency', () => {
  it.each([
    [0, '$0.00'],
    [20, '$20.00'],
    [0.49, '$0.49'],
    [12.345, '$12.35'],
    [Number.NaN, '$0.00'],
  ])('%s -> %s', (value, expected) => expect(formatCurrency(value)).toBe(expected))
})

describe('balanceTone (spec: >=1 green, between 0 and 1 yellow, <=0 red)', () => {
  it.each([
    [5, 'green'],
    [1, 'green'],
    [0.99, 'yellow'],
    [0.01, 'yellow'],
    [0, 'red'],
    [-3, 'red'],
  ])('%s -> %s', (value, expected) => expect(balanceTone(value)).toBe(expected))
})

describe('formatCallDuration (m:ss of duration minus 1 s)', () => {
  it.each([
    [null, '0:00'],
    [undefined, '0:00'],
    [0, '0:00'],
    [1, '0:00'],
    [2, '0:01'],
    [61, '1:00'],
    [62, '1:01'],
    ['125', '2:04'],
    ['abc', '0:00'],
    [3601, '60:00'],
  ])('%s -> %s', (value, expected) => expect(formatCallDuration(value)).toBe(expected))
})

describe('callCost (rounded-up minutes of duration - 1 s, x 0.49)', () => {
  it.each([
    [0, 0],
    [1, 0],
    [2, 0.49],
    [61, 0.49],
    [62, 0.98],
    ['122', 1.47],
    [null, 0],
  ])('%s s -> $%s', (value, expected) => expect(callCost(value)).toBe(expected))
})

describe('balance and timer helpers', () => {
  it('requires max duration x 0.49', () => {
    expect(requiredBalance(30)).toBe(14.7)
    expect(requiredBalance(1)).toBe(0.49)
    expect(requiredBalance(120)).toBe(58.8)
  })
  it('formats the timer as mm:ss', () => {
    expect(formatTimer(0)).toBe('00:00')
    expect(formatTimer(65.9)).toBe('01:05')
    expect(formatTimer(3600)).toBe('60:00')
  })
  it('reads the duration message', () => {
    expect(parseDurationMessage('Call duration & price: 42s')).toBe(42)
    expect(parseDurationMessage('Call duration & price: soon')).toBeNull()
  })
})

describe('statusStyle', () => {
  it.each([
    ['completed', 'green', 'completed'],
    ['no-answer', 'yellow', 'no-answer'],
    ['failed', 'red', 'failed'],
    ['', 'slate', 'Unknown'],
    [null, 'slate', 'Unknown'],
    ['busy', 'slate', 'busy'],
  ])('%s -> %s', (status, tone, label) => expect(statusStyle(status)).toEqual({ tone, label }))
})
