import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { z } from 'zod'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { messageOf } from '@/lib/api'
import { homeFor, saveSession, type SessionUser } from '@/lib/session'
import { notify } from '@/lib/toast'
import { emailField, LOGIN_PASSWORD_MIN } from '@/lib/validation'
import { authApi } from './api'
import { AuthShell } from './AuthShell'
import { safeReturnUrl, VERIFY_MESSAGES, VERIFY_OK, VERIFY_UNKNOWN } from './messages'

const schema = z.object({
  email: emailField,
  password: z
    .string()
    .min(1, 'Password is required')
    .min(LOGIN_PASSWORD_MIN, `Password must be at least ${LOGIN_PASSWORD_MIN} characters`),
})
type LoginForm = z.infer<typeof schema>

const HANDLED_PARAMS = ['token', 'user', 'error', 'verified']

export function LoginPage() {
  const navigate = useNavigate()
  const [params, setParams] = useSearchParams()
  const [loading, setLoading] = useState(false)
  const [googleLoading, setGoogleLoading] = useState(false)
  const [showResend, setShowResend] = useState(false)
  const [resending, setResending] = useState(false)
  const handledArrival = useRef(false)

  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors, touchedFields, isValid },
  } = useForm<LoginForm>({ resolver: zodResolver(schema), mode: 'all', defaultValues: { email: '', password: '' } })

  const goHome = (user: SessionUser) => {
    const returnUrl = safeReturnUrl(params.get('returnUrl'))
    const target = user.role === 'user' && returnUrl ? returnUrl : homeFor(user.role)
    navigate(target, { replace: true })
  }

  // Query parameters on arrival: a Google result, a Google failure, an e-mail verification outcome.
  useEffect(() => {
    if (handledArrival.current) return
    handledArrival.current = true
    const token = params.get('token')
    const userRaw = params.get('user')
    if (token && userRaw) {
      try {
        const user = JSON.parse(userRaw) as SessionUser
        saveSession(token, user)
        notify.success('Google login successful')
        navigate(homeFor(user.role), { replace: true })
        return
      } catch {
        notify.error('Google login failed. Please try again.')
      }
    }
    if (params.get('error') === 'google_login_failed') notify.error('Google login failed. Please try again.')
    const verified = params.get('verified')
    if (verified === 'true') notify.success(VERIFY_OK)
    if (verified === 'false') {
      const outcome = VERIFY_MESSAGES[params.get('error') ?? '']
      if (outcome) notify[outcome.kind](outcome.text)
      else notify.error(VERIFY_UNKNOWN)
    }
    if (HANDLED_PARAMS.some((p) => params.has(p))) {
      const rest = new URLSearchParams(params)
      HANDLED_PARAMS.forEach((p) => rest.delete(p))
      setParams(rest, { replace: true })
    }
  }, [params, setParams, navigate])

  const onSubmit = async (values: LoginForm) => {
    setLoading(true)
    try {
      const result = await authApi.login(values.email, values.password)
      if (!result.success) {
        notify.error(result.message || 'Login failed')
        return
      }
      saveSession(result.token, result.user)
      setShowResend(false)
      notify.success('Login successful')
      goHome(result.user)
    } catch (error) {
      const message = messageOf(error, 'Login failed. Please try again.')
      if (message.includes('Email not verified')) setShowResend(true)
      notify.error(message)
    } finally {
      setLoading(false)
    }
  }

  const onInvalid = () => notify.error('Please fill in all required fields correctly')

  const resend = async () => {
    const email = getValues('email').trim().toLowerCase()
    if (!email) {
      notify.error('Please enter your email address')
      return
    }
    setResending(true)
    try {
      const result = await authApi.resendVerification(email)
      notify.success(result.message || 'Verification email resent. Please check your inbox.')
      setShowResend(false)
    } catch (error) {
      notify.error(messageOf(error, 'Failed to resend verification email.'))
    } finally {
      setResending(false)
    }
  }

  const google = async () => {
    setGoogleLoading(true)
    try {
      const result = await authApi.googleUrl()
      window.location.assign(result.redirect_url)
    } catch (error) {
      notify.error(messageOf(error, 'Failed to initiate Google login.'))
      setGoogleLoading(false)
    }
  }

  const emailError = touchedFields.email ? errors.email?.message : undefined
  const passwordError = touchedFields.password ? errors.password?.message : undefined

  return (
    <AuthShell title="Login" subtitle="Sign in to access your account, your calls and your balance.">
      <form noValidate onSubmit={handleSubmit(onSubmit, onInvalid)} className="space-y-5">
        <Field id="email" label="Email" error={emailError}>
          <Input
            id="email"
            type="email"
            autoComplete="email"
            placeholder="you@company.com"
            aria-invalid={Boolean(emailError)}
            aria-describedby={emailError ? 'email-error' : undefined}
            {...register('email')}
          />
        </Field>
        <Field
          id="password"
          label="Password"
          error={passwordError}
          action={
            <Link to="/forgot-password" className="text-xs font-medium text-indigo-600 hover:underline">
              Forgot password?
            </Link>
          }
        >
          <Input
            id="password"
            type="password"
            autoComplete="current-password"
            placeholder="••••••••"
            aria-invalid={Boolean(passwordError)}
            aria-describedby={passwordError ? 'password-error' : undefined}
            {...register('password')}
          />
        </Field>
        {showResend && (
          <div className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800 ring-1 ring-amber-200">
            Your e-mail address is not verified yet.{' '}
            <button
              type="button"
              onClick={resend}
              disabled={resending}
              className="font-semibold text-amber-900 underline underline-offset-2 disabled:opacity-60"
            >
              {resending ? 'Sending...' : 'Resend verification email'}
            </button>
          </div>
        )}
        <Button type="submit" className="w-full" size="lg" disabled={!isValid || loading}>
          {loading && <Spinner />}
          {loading ? 'Logging in...' : 'Login'}
        </Button>
      </form>
      <div className="my-6 flex items-center gap-3 text-xs uppercase tracking-wide text-slate-400">
        <span className="h-px flex-1 bg-slate-200" />
        or
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      <Button type="button" variant="secondary" className="w-full" size="lg" onClick={google} disabled={googleLoading}>
        {googleLoading ? <Spinner /> : <GoogleIcon />}
        Continue with Google
      </Button>
      <p className="mt-6 text-center text-sm text-slate-600">
        New to Callwright?{' '}
        <Link to="/register" className="font-semibold text-indigo-600 hover:underline">
          Create an account
        </Link>
      </p>
    </AuthShell>
  )
}

function GoogleIcon() {
  return (
    <svg viewBox="0 0 24 24" className="h-4 w-4" aria-hidden>
      <path fill="#4285F4" d="M22.5 12.3c0-.8-.1-1.5-.2-2.2H12v4.2h5.9a5 5 0 0 1-2.2 3.3v2.7h3.6c2-1.9 3.2-4.7 3.2-8z" />
      <path fill="#34A853" d="M12 23c3 0 5.5-1 7.3-2.7l-3.6-2.7c-1 .7-2.2 1.1-3.7 1.1-2.9 0-5.3-1.9-6.2-4.5H2.1v2.8A11 11 0 0 0 12 23z" />
      <path fill="#FBBC05" d="M5.8 14.2a6.6 6.6 0 0 1 0-4.3V7.1H2.1a11 11 0 0 0 0 9.9l3.7-2.8z" />
      <path fill="#EA4335" d="M12 5.4c1.6 0 3.1.6 4.2 1.7l3.2-3.2A11 11 0 0 0 2.1 7.1l3.7 2.8C6.7 7.3 9.1 5.4 12 5.4z" />
    </svg>
  )
}
