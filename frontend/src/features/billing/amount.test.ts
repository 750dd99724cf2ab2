import { describe, expect, it } from 'vitest'
import { amountError, amountFromQuery, parseAmount, presetsWithin, thresholdError } from './amount'

describe('the top-up amount', () => {
  it('accepts whole and cent amounts inside the range', () => {
    expect(amountError('25', 5, 1000)).toBeNull()
    expect(amountError('$25.50', 5, 1000)).toBeNull()
    expect(amountError('1,000', 5, 1000)).toBeNull()
    expect(parseAmount('$1,000')).toBe(1000)
  })

  it('says what is wrong, with the limits the server uses', () => {
    expect(amountError('', 5, 1000)).toBe('Enter an amount.')
    expect(amountError('ten', 5, 1000)).toBe('Enter an amount in dollars, like 25 or 25.50.')
    expect(amountError('-5', 5, 1000)).toBe('Enter an amount in dollars, like 25 or 25.50.')
    expect(amountError('5.001', 5, 1000)).toBe('Use at most 2 decimal places.')
    expect(amountError('4.99', 5, 1000)).toBe('The smallest top-up is $5.')
    expect(amountError('1000.01', 5, 1000)).toBe('The largest top-up is $1,000.')
  })

  it('offers only the presets the range allows', () => {
    expect(presetsWithin(5, 1000)).toEqual([10, 25, 50, 100, 250])
    expect(presetsWithin(20, 60)).toEqual([25, 50])
  })

  it('keeps a valid ?amount= and drops any other', () => {
    expect(amountFromQuery('49', 5, 1000)).toBe('49')
    expect(amountFromQuery('2', 5, 1000)).toBeNull()
    expect(amountFromQuery('abc', 5, 1000)).toBeNull()
    expect(amountFromQuery(null, 5, 1000)).toBeNull()
  })
})

describe('the auto-recharge threshold', () => {
  it('takes whole dollars up to the largest top-up', () => {
    expect(thresholdError('10', 1000)).toBeNull()
    expect(thresholdError('', 1000)).toBe('Enter a threshold.')
    expect(thresholdError('2.5', 1000)).toBe('Enter whole dollars, like 10.')
    expect(thresholdError('0', 1000)).toBe('Enter whole dollars, like 10.')
    expect(thresholdError('1001', 1000)).toBe('The threshold may be at most $1,000.')
  })
})
