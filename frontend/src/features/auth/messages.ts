/** Outcomes of the e-mail verification link, as the spec words them. */
export const VERIFY_MESSAGES: Record<string, { kind: 'error' | 'warning'; text: string }> = {
  user_not_found: { kind: 'error', text: 'User not found' },
  invalid_link: { kind: 'error', text: 'Invalid verification link' },
  invalid_signature: { kind: 'error', text: 'Invalid or expired verification link' },
  already_verified: { kind: 'warning', text: 'Email already verified' },
  verification_failed: { kind: 'error', text: 'Failed to verify email' },
}
export const VERIFY_UNKNOWN = 'Unknown error during email verification'
export const VERIFY_OK = 'Email verified successfully'

/** A return URL is only followed inside the app (no open redirect). */
export function safeReturnUrl(value: string | null): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null
  return value
}
