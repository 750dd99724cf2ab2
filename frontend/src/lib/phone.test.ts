import { describe, expect, it } from 'vitest'
import { tidyPhone } from './phone'

describe('tidyPhone', () => {
  it.each([
    ['+1 555 123 0000', 'US', '+15551230000'],
    ['(555) 123-0000', 'US', '+15551230000'],
    ['555.123.0000', 'US', '+15551230000'],
    ['1 (555) 123-0000', 'US', '+15551230000'],
    ['0044 20 7946 0000', 'US', '+442079460000'],
    ['020 7946 0000', 'GB', '+442079460000'],
    ['447911123456', 'US', '+447911123456'],
  ])('reads %s (%s) as %s, like the server', (written, region, number) => {
    expect(tidyPhone(written, region)).toBe(number)
  })

  it.each(['', 'call me', '555-0100', '+999 123 4567', '+1 555 123 0000 x12', '+1234567890123456'])('refuses %j', (written) => {
    expect(tidyPhone(written, 'US')).toBeNull()
  })
})
