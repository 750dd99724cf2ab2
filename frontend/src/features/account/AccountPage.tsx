import { zodResolver } from '@hookform/resolvers/zod'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo } from 'react'
import { useForm } from 'react-hook-form'
import { z } from 'zod'
import { Button } from '@/components/ui/button'
import { Card, Skeleton, Spinner } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { fieldAria } from '@/components/ui/fieldAria'
import { Input } from '@/components/ui/input'
import { messageOf } from '@/lib/api'
import { applyServerErrors } from '@/lib/forms'
import { updateUserName } from '@/lib/session'
import { notify } from '@/lib/toast'
import { NEW_PASSWORD_MIN, newPasswordField } from '@/lib/validation'
import { browserTimeZone, formatInZone, isTimeZone, timeZoneChoices } from '@/lib/timezone'
import { accountApi, profileQuery } from './api'

const profileSchema = z.object({
  name: z.string().trim().min(1, 'Name is required').max(255, 'Name must be 255 characters or less'),
})
const passwordSchema = z
  .object({
    old_password: z.string().min(1, 'Current password is required'),
    new_password: newPasswordField,
    new_password_confirmation: z.string().min(1, 'Please confirm the new password'),
  })
  .refine((v) => v.new_password === v.new_password_confirmation, {
    message: 'Passwords do not match',
    path: ['new_password_confirmation'],
  })
const timeZoneSchema = z.object({
  timezone: z.string().min(1, 'Choose your time zone').refine(isTimeZone, 'Choose a time zone from the list'),
})

export function AccountPage() {
  const profile = useQuery(profileQuery)
  return (
    <div className="space-y-8">
      <header>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Account settings</h1>
        <p className="mt-1 text-sm text-slate-500">Your name, your time zone and your password.</p>
      </header>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card className="p-6">
          <h2 className="text-lg font-semibold text-slate-900">Profile</h2>
          {profile.isPending ? (
            <div className="mt-4 space-y-3">
              <Skeleton className="h-10 w-full" />
              <Skeleton className="h-10 w-full" />
            </div>
          ) : profile.isError ? (
            <p role="alert" className="mt-4 text-sm text-rose-600">
              {profile.error.message}
            </p>
          ) : (
            <ProfileForm name={profile.data.name} email={profile.data.email} />
          )}
        </Card>
        <Card className="p-6">
          <h2 className="text-lg font-semibold text-slate-900">Time zone</h2>
          {profile.isPending ? (
            <div className="mt-4 space-y-3">
              <Skeleton className="h-10 w-full" />
            </div>
          ) : profile.isError ? (
            <p role="alert" className="mt-4 text-sm text-rose-600">
              {profile.error.message}
            </p>
          ) : (
            <TimeZoneForm timezone={profile.data.timezone ?? null} />
          )}
        </Card>
        <Card className="p-6">
          <h2 className="text-lg font-semibold text-slate-900">Change password</h2>
          <PasswordForm />
        </Card>
      </div>
    </div>
  )
}

function ProfileForm({ name, email }: { name: string; email: string }) {
  const queryClient = useQueryClient()
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty },
  } = useForm<z.infer<typeof profileSchema>>({ resolver: zodResolver(profileSchema), defaultValues: { name } })
  useEffect(() => reset({ name }), [name, reset])

  const save = useMutation({
    mutationFn: (value: string) => accountApi.updateName(value),
    onSuccess: (result) => {
      updateUserName(result.data.name)
      queryClient.setQueryData(profileQuery.queryKey, result.data)
      notify.success(result.message ?? 'Profile updated successfully')
    },
    onError: (error) => {
      applyServerErrors(error, setError, ['name'])
      notify.error(messageOf(error, 'Failed to update user profile'))
    },
  })

  return (
    <form noValidate className="mt-4 space-y-4" onSubmit={handleSubmit((v) => save.mutate(v.name.trim()))}>
      <Field id="name" label="Name" error={errors.name?.message}>
        <Input id="name" autoComplete="name" {...fieldAria('name', errors.name?.message)} {...register('name')} />
      </Field>
      <Field id="email" label="Email" hint="Your e-mail address is your sign-in name.">
        <Input id="email" value={email} disabled readOnly {...fieldAria('email', undefined, true)} />
      </Field>
      <Button type="submit" disabled={!isDirty || save.isPending}>
        {save.isPending && <Spinner />} Save profile
      </Button>
    </form>
  )
}

/** The user's own zone: the times Send Call and the notices give are in it. */
function TimeZoneForm({ timezone }: { timezone: string | null }) {
  const queryClient = useQueryClient()
  const choices = useMemo(() => timeZoneChoices(timezone), [timezone])
  const browser = browserTimeZone()
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<z.infer<typeof timeZoneSchema>>({ resolver: zodResolver(timeZoneSchema), defaultValues: { timezone: timezone ?? '' } })
  useEffect(() => reset({ timezone: timezone ?? '' }), [timezone, reset])

  const save = useMutation({
    mutationFn: (zone: string) => accountApi.updateTimeZone(zone),
    onSuccess: (result) => {
      queryClient.setQueryData(profileQuery.queryKey, result.data)
      notify.success(result.message ?? 'Time zone updated')
    },
    onError: (error) => {
      applyServerErrors(error, setError, ['timezone'])
      notify.error(messageOf(error, 'Failed to update the time zone'))
    },
  })
  const now = new Date().toISOString()
  const hint = timezone
    ? `Times on Send Call and in calling-hours notices are in this zone: it is ${formatInZone(now, timezone)} there now.`
    : `Not set yet${browser ? `: this browser is in ${browser}` : ''}.`

  return (
    <form noValidate className="mt-4 space-y-4" onSubmit={handleSubmit((v) => save.mutate(v.timezone))}>
      <Field id="timezone" label="Your time zone" error={errors.timezone?.message} hint={hint}>
        <select
          id="timezone"
          {...fieldAria('timezone', errors.timezone?.message, true)}
          {...register('timezone')}
          className="h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200 aria-[invalid=true]:border-rose-400"
        >
          <option value="">Choose a time zone</option>
          {choices.map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </select>
      </Field>
      <Button type="submit" disabled={save.isPending}>
        {save.isPending && <Spinner />} Save time zone
      </Button>
    </form>
  )
}

function PasswordForm() {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<z.infer<typeof passwordSchema>>({
    resolver: zodResolver(passwordSchema),
    defaultValues: { old_password: '', new_password: '', new_password_confirmation: '' },
  })
  const onSubmit = async (v: z.infer<typeof passwordSchema>) => {
    try {
      const result = await accountApi.changePassword(v.old_password, v.new_password, v.new_password_confirmation)
      notify.success(result.message)
      reset()
    } catch (error) {
      applyServerErrors(error, setError, ['old_password', 'new_password', 'new_password_confirmation'])
      notify.error(messageOf(error, 'Failed to update user password'))
    }
  }
  return (
    <form noValidate className="mt-4 space-y-4" onSubmit={handleSubmit(onSubmit)}>
      <Field id="old_password" label="Current password" error={errors.old_password?.message}>
        <Input id="old_password" type="password" autoComplete="current-password" {...fieldAria('old_password', errors.old_password?.message)} {...register('old_password')} />
      </Field>
      <Field id="new_password" label="New password" error={errors.new_password?.message} hint={`At least ${NEW_PASSWORD_MIN} characters.`}>
        <Input id="new_password" type="password" autoComplete="new-password" {...fieldAria('new_password', errors.new_password?.message, true)} {...register('new_password')} />
      </Field>
      <Field id="new_password_confirmation" label="Confirm new password" error={errors.new_password_confirmation?.message}>
        <Input
          id="new_password_confirmation"
          type="password"
          autoComplete="new-password"
          {...fieldAria('new_password_confirmation', errors.new_password_confirmation?.message)}
          {...register('new_password_confirmation')}
        />
      </Field>
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting && <Spinner />} Update password
      </Button>
      <p className="text-xs text-slate-500">Other signed-in devices are signed out when the password changes.</p>
    </form>
  )
}
