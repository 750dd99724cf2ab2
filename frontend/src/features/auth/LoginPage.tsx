import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { z } from 'zod'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { fieldAria } from '@/components/ui/fieldAria'
import { Input } from '@/components/ui/input'
import { messageOf } from '@/lib/api'
import { applyServerErrors } from '@/lib/forms'
import { homeFor, saveSession, type SessionUser } from '@/lib/session'
import { notify } from '@/lib/toast'
import { emailField, LOGIN_PASSWORD_MIN } from '@/lib/validation'
import { authApi } from './api'
import { AuthShell } from './AuthShell'
import { GoogleButton } from './GoogleButton'
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
  const [params] = useSearchParams()
  const [loading, setLoading] = useState(false)
  const [showResend, setShowResend] = useState(false)
  const [resending, setResending] = useState(false)
  useArrival()

  const {
    register,
    handleSubmit,
    getValues,
    setError,
    clearErrors,
    formState: { errors, touchedFields, isSubmitted },
  } = useForm<LoginForm>({ resolver: zodResolver(schema), mode: 'all', defaultValues: { email: '', password: '' } })

  const goHome = (user: SessionUser) => {
    const returnUrl = safeReturnUrl(params.get('returnUrl'))
    const target = user.role === 'user' && returnUrl ? returnUrl : homeFor(user.role)
    navigate(target, { replace: true })
  }


  const onSubmit = async (values: LoginForm) => {
    clearErrors()
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
      // The server's field messages ("These credentials do not match our records.") show beside
      // their fields as well as in the toast.
      applyServerErrors(error, setError, ['email', 'password'])
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

  // The spec: client errors once a field was touched (or the form submitted); the server's as
  // soon as they come.
  const shown = (field: keyof LoginForm) =>
    touchedFields[field] || isSubmitted || errors[field]?.type === 'server' ? errors[field]?.message : undefined
  const emailError = shown('email')
  const passwordError = shown('password')

  return (
    <AuthShell title="Login" subtitle="Sign in to access your account, your calls and your balance.">
      <form noValidate onSubmit={handleSubmit(onSubmit, onInvalid)} className="space-y-5">
        <Field id="email" label="Email" error={emailError}>
          <Input
            id="email"
            type="email"
            autoComplete="email"
            placeholder="you@company.com"
            {...fieldAria('email', emailError)}
            {...register('email')}
          />
        </Field>
        <Field id="password" label="Password" error={passwordError}>
          <Input
            id="password"
            type="password"
            autoComplete="current-password"
            placeholder="••••••••"
            {...fieldAria('password', passwordError)}
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
        {/* Never disabled while invalid: a submit (or Enter) shows every field's error and
            focuses the first; disabled only while the request is out. */}
        <Button type="submit" className="w-full" size="lg" disabled={loading}>
          {loading && <Spinner />}
          {loading ? 'Logging in...' : 'Login'}
        </Button>
        {/* After the button, so the keyboard goes email, password, Login. */}
        <p className="text-center text-sm">
          <Link to="/forgot-password" className="font-medium text-indigo-600 hover:underline">
            Forgot password?
          </Link>
        </p>
      </form>
      <GoogleButton />
      <p className="mt-6 text-center text-sm text-slate-600">
        New to Callwright?{' '}
        <Link to="/register" className="font-semibold text-indigo-600 hover:underline">
          Create an account
        </Link>
      </p>
    </AuthShell>
  )
}

/** Query parameters on arrival: a Google result, a Google failure, an e-mail verification outcome. */
function useArrival() {
  const navigate = useNavigate()
  const [params, setParams] = useSearchParams()
  const handledArrival = useRef(false)
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
}
