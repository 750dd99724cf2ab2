/** The spec's client-side rules and messages (login and account forms). */
import { z } from 'zod'

import { EMAIL_PATTERN } from './patterns'

export { EMAIL_PATTERN }
export const LOGIN_PASSWORD_MIN = 6
/** New passwords (register, reset, change) follow the server's policy. */
export const NEW_PASSWORD_MIN = 8

export const emailField = z
  .string()
  .trim()
  .min(1, 'Email is required')
  .refine((v) => {
    const [local = ''] = v.split('@')
    return v.length <= 254 && local.length <= 64 && EMAIL_PATTERN.test(v)
  }, 'Invalid email format')

export const newPasswordField = z
  .string()
  .min(1, 'Password is required')
  .min(NEW_PASSWORD_MIN, `Password must be at least ${NEW_PASSWORD_MIN} characters`)
  .max(256, 'Password must be 256 characters or less')
