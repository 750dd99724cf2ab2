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

/** The spec's send-call messages, for what is empty or no number at all (a number written with
 * spaces or brackets is tidied, not refused: issue 20). */
export const SEND_CALL_PHONE_EMPTY = 'Phone number cannot be empty'
export const SEND_CALL_PHONE_FORMAT = 'Phone number must start with "+" followed by 10-15 digits (e.g., +15551234567)'

/** The send-call phone's first problem, or null. */
export function sendCallPhoneProblem(phone: string, region?: string): string | null {
  if (!phone.trim()) return SEND_CALL_PHONE_EMPTY
  return tidyPhone(phone, region) ? null : SEND_CALL_PHONE_FORMAT
}
