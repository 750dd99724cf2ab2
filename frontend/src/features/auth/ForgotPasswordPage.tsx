import { zodResolver } from '@hookform/resolvers/zod'
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
import { emailField } from '@/lib/validation'
import { authApi } from './api'
import { AuthShell } from './AuthShell'

const schema = z.object({ email: emailField })
type ForgotForm = z.infer<typeof schema>

export function ForgotPasswordPage() {
  const [done, setDone] = useState<string | null>(null)
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, touchedFields, isSubmitting, isSubmitted },
  } = useForm<ForgotForm>({ resolver: zodResolver(schema), mode: 'onTouched', defaultValues: { email: '' } })

  const onSubmit = async ({ email }: ForgotForm) => {
    try {
      const result = await authApi.forgotPassword(email.trim())
      setDone(result.message)
    } catch (error) {
      applyServerErrors(error, setError, ['email'])
      notify.error(messageOf(error, 'Failed to send password reset link'))
    }
  }
  const emailError = touchedFields.email || isSubmitted ? errors.email?.message : undefined

  return (
    <AuthShell title="Forgot your password?" subtitle="Enter your e-mail and we will send you a link to choose a new one.">
      {done ? (
        <div role="status" className="space-y-5">
          <p className="rounded-lg bg-emerald-50 px-4 py-3 text-sm text-emerald-800 ring-1 ring-emerald-200">{done}</p>
          <Button asChild variant="secondary" className="w-full">
            <Link to="/login">Back to login</Link>
          </Button>
        </div>
      ) : (
        <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-5">
          <Field id="email" label="Email" error={emailError}>
            <Input id="email" type="email" autoComplete="email" {...fieldAria('email', emailError)} {...register('email')} />
          </Field>
          <Button type="submit" className="w-full" size="lg" disabled={isSubmitting}>
            {isSubmitting && <Spinner />}
            {isSubmitting ? 'Sending...' : 'Send reset link'}
          </Button>
          <p className="text-center text-sm">
            <Link to="/login" className="font-medium text-indigo-600 hover:underline">
              Back to login
            </Link>
          </p>
        </form>
      )}
    </AuthShell>
  )
}
