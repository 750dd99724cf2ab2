import { zodResolver } from '@hookform/resolvers/zod'
import { MailCheck } from 'lucide-react'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link } from 'react-router'
import { z } from 'zod'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { fieldAria } from '@/components/ui/fieldAria'
import { Input } from '@/components/ui/input'
import { messageOf } from '@/lib/api'
import { applyServerErrors } from '@/lib/forms'
import { notify } from '@/lib/toast'
import { emailField, NEW_PASSWORD_MIN, newPasswordField } from '@/lib/validation'
import { authApi } from './api'
import { AuthShell } from './AuthShell'
import { GoogleButton } from './GoogleButton'

const schema = z
  .object({
    name: z.string().trim().min(1, 'Name is required').max(255, 'Name must be 255 characters or less'),
    email: emailField,
    password: newPasswordField,
    confirm: z.string().min(1, 'Please confirm your password'),
  })
  .refine((v) => v.password === v.confirm, { message: 'Passwords do not match', path: ['confirm'] })
type RegisterForm = z.infer<typeof schema>

export function RegisterPage() {
  const [sentTo, setSentTo] = useState<string | null>(null)
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, touchedFields, isSubmitting, isSubmitted },
  } = useForm<RegisterForm>({
    resolver: zodResolver(schema),
    mode: 'onTouched',
    defaultValues: { name: '', email: '', password: '', confirm: '' },
  })

  const onSubmit = async (values: RegisterForm) => {
    try {
      const result = await authApi.register(values.name.trim(), values.email.trim(), values.password)
      notify.success(result.message)
      setSentTo(values.email.trim().toLowerCase())
    } catch (error) {
      applyServerErrors(error, setError, ['name', 'email', 'password'])
      notify.error(messageOf(error, 'Registration failed'))
    }
  }

  const show = (field: keyof RegisterForm) => (touchedFields[field] || isSubmitted ? errors[field]?.message : undefined)

  if (sentTo) {
    return (
      <AuthShell title="Check your inbox" subtitle="One more step to activate your account.">
        <div className="flex flex-col items-center gap-4 text-center">
          <span className="flex h-14 w-14 items-center justify-center rounded-full bg-indigo-50 text-indigo-600">
            <MailCheck className="h-7 w-7" aria-hidden />
          </span>
          <p className="text-sm text-slate-600">
            We sent a verification link to <strong className="text-slate-900">{sentTo}</strong>. Open it to verify your
            e-mail address, then sign in.
          </p>
          <Button asChild className="w-full" size="lg">
            <Link to="/login">Go to login</Link>
          </Button>
        </div>
      </AuthShell>
    )
  }

  return (
    <AuthShell title="Create your account" subtitle="Start placing AI calls in minutes.">
      <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-5">
        <Field id="name" label="Full name" error={show('name')}>
          <Input id="name" autoComplete="name" placeholder="Ada Lovelace" {...fieldAria('name', show('name'))} {...register('name')} />
        </Field>
        <Field id="email" label="Email" error={show('email')}>
          <Input
            id="email"
            type="email"
            autoComplete="email"
            placeholder="you@company.com"
            {...fieldAria('email', show('email'))}
            {...register('email')}
          />
        </Field>
        <Field id="password" label="Password" error={show('password')} hint={`At least ${NEW_PASSWORD_MIN} characters.`}>
          <Input
            id="password"
            type="password"
            autoComplete="new-password"
            {...fieldAria('password', show('password'), true)}
            {...register('password')}
          />
        </Field>
        <Field id="confirm" label="Confirm password" error={show('confirm')}>
          <Input
            id="confirm"
            type="password"
            autoComplete="new-password"
            {...fieldAria('confirm', show('confirm'))}
            {...register('confirm')}
          />
        </Field>
        <Button type="submit" className="w-full" size="lg" disabled={isSubmitting}>
          {isSubmitting && <Spinner />}
          {isSubmitting ? 'Creating account...' : 'Create account'}
        </Button>
      </form>
      <GoogleButton label="Sign up with Google" />
      <p className="mt-6 text-center text-sm text-slate-600">
        Already have an account?{' '}
        <Link to="/login" className="font-semibold text-indigo-600 hover:underline">
          Log in
        </Link>
      </p>
    </AuthShell>
  )
}
