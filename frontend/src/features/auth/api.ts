/** Auth calls, with the spec's fallback messages. */
import { api, unwrap } from '@/lib/api'
import type { SessionUser } from '@/lib/session'

export interface LoginResult {
  success: boolean
  message: string
  token: string
  user: SessionUser
}

export const authApi = {
  login: (email: string, password: string) =>
    unwrap(api.POST('/api/v1/login', { body: { email: email.toLowerCase(), password } }), 'Login failed. Please try again.'),
  register: (name: string, email: string, password: string) =>
    unwrap(api.POST('/api/v1/register', { body: { name, email: email.toLowerCase(), password } }), 'Registration failed'),
  resendVerification: (email: string) =>
    unwrap(
      api.POST('/api/v1/resend-verification', { body: { email: email.toLowerCase() } }),
      'Failed to resend verification email.',
    ),
  forgotPassword: (email: string) =>
    unwrap(
      api.POST('/api/v1/forgot-password', { body: { email: email.toLowerCase() } }),
      'Failed to send password reset link',
    ),
  resetPassword: (token: string, email: string, password: string) =>
    unwrap(
      api.POST('/api/v1/reset-password', {
        body: { token, email: email.toLowerCase(), password, password_confirmation: password },
      }),
      'Failed to reset password',
    ),
  googleUrl: () => unwrap(api.GET('/api/v1/auth/google'), 'Failed to fetch Google auth URL'),
  logout: () => unwrap(api.POST('/api/v1/logout'), 'Logout failed'),
}
