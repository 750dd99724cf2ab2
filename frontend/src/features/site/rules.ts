/** The public forms' client rules (spec section 5), as small functions: the landing route
 * stays light (no schema library on it). Each returns the field's message, or ''. */
import { EMAIL_PATTERN } from '@/lib/patterns'

export const LANDING_PHONE = /^\+?[1-9]\d{1,14}$/
export const CONTACT_PHONE = /^\+?[\d\s-]+$/
export const WEBSITE = /^https?:\/\/([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63}(:\d{1,5})?(\/\S*)?$/

/** What people put between a number's digits: tidied away, not refused ("(555) 123-0000"). */
export const PHONE_PUNCTUATION = /[\s().\-/]/g

export function landingPhoneProblem(value: string): string {
  const v = value.trim()
  if (!v) return 'Please enter a phone number.'
  if (!LANDING_PHONE.test(v.replace(PHONE_PUNCTUATION, ''))) return 'Please enter a valid phone number (e.g., +1234567890).'
  return ''
}

/** When a refused visitor may try again (the server's Retry-After), in their own time:
 * "Try again in 42 minutes, at 11:35." (or "at 09:10 tomorrow"). */
export function retryWhen(seconds: number, now: Date = new Date()): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60))
  const at = new Date(now.getTime() + Math.max(0, seconds) * 1000)
  const clock = at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
  const day = at.toDateString() === now.toDateString() ? '' : ' tomorrow'
  const span = minutes < 60 ? `${minutes} minute${minutes === 1 ? '' : 's'}` : `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`
  return `Try again in ${span}, at ${clock}${day}.`
}

export function emailProblem(value: string): string {
  const v = value.trim()
  if (!v) return 'Email is required'
  const [local = ''] = v.split('@')
  if (v.length > 254 || local.length > 64 || !EMAIL_PATTERN.test(v)) return 'Invalid email format'
  return ''
}

export function contactPhoneProblem(value: string): string {
  const v = value.trim()
  if (!v) return 'Phone number is required'
  if (!CONTACT_PHONE.test(v)) return 'Invalid phone number format'
  return ''
}

export function requiredProblem(value: string, message: string): string {
  return value.trim() ? '' : message
}

export type EnterpriseForm = {
  name: string
  email: string
  website: string
  use_case: string
  phone_calls_per_month: string
  applicant_type: string
  message: string
}

export function enterpriseProblems(f: EnterpriseForm): Partial<Record<keyof EnterpriseForm, string>> {
  const calls = f.phone_calls_per_month.trim()
  const out: Partial<Record<keyof EnterpriseForm, string>> = {
    name: !f.name.trim() ? 'Name is required' : f.name.trim().length > 255 ? 'Name must be 255 characters or less' : '',
    email: emailProblem(f.email),
    website: !f.website.trim() ? 'Website is required' : WEBSITE.test(f.website.trim()) ? '' : 'Invalid URL format (must start with http:// or https://)',
    use_case: requiredProblem(f.use_case, 'Use case is required'),
    phone_calls_per_month: !calls
      ? 'Phone calls are required'
      : !/^\d+$/.test(calls)
        ? 'Must be a whole number'
        : Number(calls) < 25
          ? 'Must be at least 25 calls'
          : '',
    applicant_type: f.applicant_type === 'agency' || f.applicant_type === 'individual' ? '' : 'Please select an option',
    message: requiredProblem(f.message, 'Message is required'),
  }
  for (const key of Object.keys(out) as (keyof EnterpriseForm)[]) if (!out[key]) delete out[key]
  return out
}
