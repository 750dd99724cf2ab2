import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { z } from 'zod'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/card'
import { Field, FormError } from '@/components/ui/field'
import { fieldAria } from '@/components/ui/fieldAria'
import { Input } from '@/components/ui/input'
import { messageOf } from '@/lib/api'
import { applyServerErrors } from '@/lib/forms'
import { notify } from '@/lib/toast'
import { NEW_PASSWORD_MIN, newPasswordField } from '@/lib/validation'
import { authApi } from './api'
import { AuthShell } from './AuthShell'

const schema = z
  .object({ password: newPasswordField, confirm: z.string().min(1, 'Please confirm your password') })
  .refine((v) => v.password === v.confirm, { message: 'Passwords do not match', path: ['confirm'] })
type ResetForm = z.infer<typeof schema>

export function ResetPasswordPage() {
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const token = params.get('token') ?? ''
  const [formError, setFormError] = useState<string | null>(null)
  const email = params.get('email') ?? ''
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, touchedFields, isSubmitting, isSubmitted },
  } = useForm<ResetForm>({ resolver: zodResolver(schema), mode: 'onTouched', defaultValues: { password: '', confirm: '' } })

  if (!token || !email) {
    return (
      <AuthShell title="Reset password" subtitle="This link is incomplete.">
        <p className="text-sm text-slate-600">
          Open the link from your e-mail again, or{' '}
          <Link to="/forgot-password" className="font-semibold text-indigo-600 hover:underline">
            ask for a new one
          </Link>
          .
        </p>
      </AuthShell>
    )
  }

  const onSubmit = async ({ password }: ResetForm) => {
    setFormError(null)
    try {
      const result = await authApi.resetPassword(token, email, password)
      notify.success(result.message)
      navigate('/login', { replace: true })
    } catch (error) {
      // A refused password shows beside its field; a dead link above the form, with the way on.
      if (!applyServerErrors(error, setError, ['password'])) setFormError(messageOf(error, 'Failed to reset password'))
      notify.error(messageOf(error, 'Failed to reset password'))
    }
  }
  const show = (f: keyof ResetForm) => (touchedFields[f] || isSubmitted ? errors[f]?.message : undefined)

  return (
    <AuthShell title="Choose a new password" subtitle={`For ${email}`}>
      <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-5">
        <FormError message={formError} />
        <Field id="password" label="New password" error={show('password')} hint={`At least ${NEW_PASSWORD_MIN} characters.`}>
          <Input id="password" type="password" autoComplete="new-password" {...fieldAria('password', show('password'), true)} {...register('password')} />
        </Field>
        <Field id="confirm" label="Confirm new password" error={show('confirm')}>
          <Input id="confirm" type="password" autoComplete="new-password" {...fieldAria('confirm', show('confirm'))} {...register('confirm')} />
        </Field>
        <Button type="submit" className="w-full" size="lg" disabled={isSubmitting}>
          {isSubmitting && <Spinner />}
          {isSubmitting ? 'Saving...' : 'Reset password'}
        </Button>
        <p className="text-center text-sm">
          <Link to="/forgot-password" className="font-medium text-indigo-600 hover:underline">
            Need a new link?
          </Link>
        </p>
      </form>
    </AuthShell>
  )
}
