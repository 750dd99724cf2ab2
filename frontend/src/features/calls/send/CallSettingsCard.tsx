/** Send Call's settings card: the balance (and what a call going on holds of it), the number,
 * the max duration, the greeting wait, the Send and Stop buttons, and what a calling-hours
 * refusal offers (the call scheduled for the window's opening). */
import { CalendarClock, Phone, PhoneOff } from 'lucide-react'
import { Link } from 'react-router'
import { useWatch, type UseFormReturn } from 'react-hook-form'
import { Button } from '@/components/ui/button'
import { Card, Skeleton, Spinner } from '@/components/ui/card'
import { errorId, fieldAria, hintId } from '@/components/ui/fieldAria'
import { cn } from '@/lib/cn'
import { balanceTextClass, formatCurrency, requiredBalance } from '@/lib/format'
import { BILLING_PATH } from '@/lib/billing'
import { formatInZone } from '@/lib/timezone'
import { loadPhone, type SendCallForm } from './form'
import { MaxDurationField } from './MaxDurationField'
import { TransferNumberField } from './TransferNumberField'
import type { Balance } from './useBalance'
import type { usePhoneField } from './usePhoneField'
import type { useSendCall } from './useSendCall'

type SendCall = ReturnType<typeof useSendCall>

interface Props {
  form: UseFormReturn<SendCallForm>
  balance: Balance
  phoneField: ReturnType<typeof usePhoneField>
  sendCall: SendCall
}

export function CallSettingsCard({ form, balance, phoneField, sendCall }: Props) {
  const [phone, maxDuration] = useWatch({ control: form.control, name: ['phone', 'maxDuration'] })
  const { call, sending, fundsProblem, opening } = sendCall
  const { active, inCall } = call
  return (
    <Card className="space-y-5 p-5">
      <h2 className="text-lg font-semibold text-slate-900">Call Settings</h2>
      <div className="rounded-lg bg-slate-50 px-4 py-3">
        <div className="flex items-center justify-between">
          <span className="text-sm text-slate-600">
            {active ? 'Available' : 'Balance'}{' '}
            <Link to={BILLING_PATH} className="ml-1 text-xs font-semibold text-indigo-600 hover:underline">
              Add funds
            </Link>
          </span>
          {balance.shown === null ? (
            <Skeleton className="h-6 w-20" />
          ) : (
            <span data-testid="send-balance" className={cn('text-lg font-bold tabular-nums', balanceTextClass(balance.shown))}>
              {formatCurrency(balance.shown)}
            </span>
          )}
        </div>
        {active && (
          <p className="mt-1 flex items-center justify-between text-xs text-slate-500" data-testid="send-held">
            <span>Held for this call</span>
            <span className="tabular-nums">{formatCurrency(requiredBalance(maxDuration))}</span>
          </p>
        )}
      </div>
      <PhoneField form={form} rules={phoneField} disabled={active} />
      {fundsProblem && (
        <div role="alert" className="rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-700 ring-1 ring-rose-200">
          {fundsProblem}{' '}
          <Link to={BILLING_PATH} className="font-semibold underline underline-offset-2">
            Add funds on the Billing page
          </Link>
        </div>
      )}
      <MaxDurationField form={form} balance={balance} active={active} />
      <label className="flex items-center justify-between gap-3 text-sm font-medium text-slate-700">
        Wait for greeting
        <input type="checkbox" role="switch" {...form.register('waitGreeting')} disabled={active} className="h-5 w-5 accent-indigo-600" />
      </label>
      <TransferNumberField form={form} disabled={active} />
      <div className="flex gap-3">
        <Button className="flex-1" onClick={sendCall.place} disabled={active || !phone || sending || opening.scheduling}>
          {sending ? <Spinner className="h-4 w-4" /> : <Phone className="h-4 w-4" aria-hidden />}
          {active ? (inCall ? 'On call' : 'Calling...') : sending ? 'Calling...' : 'Send Call'}
        </Button>
        <Button variant="danger" className="flex-1" onClick={sendCall.stop} disabled={!active}>
          <PhoneOff className="h-4 w-4" aria-hidden /> Stop Call
        </Button>
      </div>
      <Opening opening={opening} active={active} />
    </Card>
  )
}

function PhoneField({ form: { register, formState: { errors } }, rules, disabled }: { form: UseFormReturn<SendCallForm>; rules: ReturnType<typeof usePhoneField>; disabled: boolean }) {
  return (
    <div>
      <label htmlFor="phone" className="text-sm font-medium text-slate-700">
        Phone number
      </label>
      <input
        id="phone"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        {...register('phone', { validate: rules.validate, onBlur: (e: { target: HTMLInputElement }) => void rules.tidy(e.target.value) })}
        onFocus={() => void loadPhone()}
        {...fieldAria('phone', errors.phone?.message, true)}
        disabled={disabled}
        placeholder="+15551234567"
        className="mt-1 h-10 w-full rounded-lg border border-slate-300 px-3 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200 disabled:bg-slate-50 aria-[invalid=true]:border-rose-400"
      />
      {errors.phone?.message ? (
        <p id={errorId('phone')} role="alert" className="mt-1 text-xs font-medium text-rose-600">
          {errors.phone.message}
        </p>
      ) : (
        <p id={hintId('phone')} className="mt-1 text-xs text-slate-500">
          Any way you write it: "(555) 123-0000" is dialled as +15551230000.
        </p>
      )}
    </div>
  )
}

/** A calling-hours refusal with the way to schedule past it, and the call once scheduled. */
function Opening({ opening, active }: { opening: SendCall['opening']; active: boolean }) {
  const { refusal, scheduling, scheduled, timeZone } = opening
  return (
    <>
      {refusal && !active && (
        <div role="alert" data-testid="window-refusal" className="space-y-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950 ring-1 ring-amber-200">
          <p>{refusal.message}</p>
          <Button variant="secondary" size="sm" onClick={opening.schedule} disabled={scheduling}>
            {scheduling ? <Spinner className="h-4 w-4" /> : <CalendarClock className="h-4 w-4" aria-hidden />} Call when the window opens
          </Button>
        </div>
      )}
      {scheduled && (
        <p role="status" data-testid="call-scheduled" className="rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-900 ring-1 ring-emerald-200">
          Your call to {scheduled.to} is scheduled for {formatInZone(scheduled.at, timeZone)} ({timeZone}).{' '}
          <Link to={`/dashboard/calls/${scheduled.callId}`} className="font-semibold underline underline-offset-2">
            Open its page
          </Link>
        </p>
      )}
    </>
  )
}
