/** Phone numbers as people write them ("+1 555 123 0000", "(555) 123-0000") tidied to E.164,
 * the way the server reads them (callwright.kit.phone.tidy): a number without "+" (or "00") is
 * read in the server's default region, then as the digits after "+". A "possible" number is a
 * whole one: the right length for its country (the sandbox's 555 numbers are not "valid"). */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min'

const PUNCTUATION = /[\s().\-/]/g
const INTERNATIONAL = /^\+\d{10,15}$/

function possible(text: string, region?: CountryCode): string | null {
  const number = parsePhoneNumberFromString(text, region)
  return number?.isPossible() ? number.number : null
}

/** `value` in E.164, or null when it is no whole number. */
export function tidyPhone(value: string, region: string = 'US'): string | null {
  let compact = value.trim().replace(PUNCTUATION, '')
  if (compact.startsWith('00')) compact = `+${compact.slice(2)}`
  if (compact.startsWith('+')) return INTERNATIONAL.test(compact) ? possible(compact) : null
  if (!/^\d+$/.test(compact)) return null
  const national = possible(compact, region as CountryCode)
  if (national) return national
  return INTERNATIONAL.test(`+${compact}`) ? possible(`+${compact}`) : null
}
