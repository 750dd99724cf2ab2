import { describe, expect, it } from 'vitest'
import { balanceTone, formatCurrency } from './format'

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
