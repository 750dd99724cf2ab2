/** The call's max duration, what it holds of the balance, and how far the balance reaches. */
import { useEffect, useRef } from 'react'
import { Link } from 'react-router'
import { useWatch, type UseFormReturn } from 'react-hook-form'
import { Slider } from '@/components/ui/slider'
import { formatCurrency, requiredBalance } from '@/lib/format'
import { BILLING_PATH } from '@/lib/billing'
import { coveredMinutes, DEFAULTS, RULES, type SendCallForm } from './form'
import type { Balance } from './useBalance'

export function MaxDurationField({ form, balance, active }: { form: UseFormReturn<SendCallForm>; balance: Balance; active: boolean }) {
  const maxDuration = useWatch({ control: form.control, name: 'maxDuration' })
  const fitted = useFittedDuration(form, balance, active, maxDuration)
  const shownBalance = balance.shown
  return (
    <>
      <Slider
        id="max-duration"
        label="Max duration"
        min={1}
        max={120}
        step={1}
        field={form.register('maxDuration', RULES.maxDuration)}
        disabled={active}
        display={`${maxDuration} min`}
        describedBy={fitted ? 'max-duration-hold max-duration-fitted' : 'max-duration-hold'}
      />
      <p id="max-duration-hold" className="-mt-3 text-xs text-slate-500">
        Holds {formatCurrency(requiredBalance(maxDuration))} until the call ends; you pay only the minutes used.
      </p>
      {fitted && (
        <p id="max-duration-fitted" className="-mt-3 text-xs text-slate-600" data-testid="max-duration-fitted">
          Set to {fitted.minutes} min, the most your balance of {formatCurrency(fitted.balance)} covers (the usual default is {DEFAULTS.maxDuration} min).
        </p>
      )}
      {!active && shownBalance !== null && shownBalance < requiredBalance(maxDuration) && (
        <p className="-mt-3 text-xs font-medium text-amber-700" data-testid="balance-covers">
          {coveredMinutes(shownBalance) > 0
            ? `Your balance covers calls of up to ${coveredMinutes(shownBalance)} min: lower the max duration, or `
            : 'Your balance covers no call yet: '}
          <Link to={BILLING_PATH} className="font-semibold underline underline-offset-2">
            add funds
          </Link>
          .
        </p>
      )}
    </>
  )
}

/** A balance that cannot hold the default 30 minutes starts the max duration at the most it
 * covers (at least 1), once, unless the field was already set (by an agent or a call picked
 * up): a starter credit places its first call without touching the form. While the field holds
 * that, short of the default, it says so (the minutes and the balance returned). */
function useFittedDuration({ getValues, setValue }: UseFormReturn<SendCallForm>, balance: Balance, active: boolean, maxDuration: number) {
  const fitDone = useRef(false)
  const statsBalance = balance.loaded
  useEffect(() => {
    if (fitDone.current || statsBalance === undefined || active) return
    fitDone.current = true
    if (getValues('maxDuration') !== DEFAULTS.maxDuration || statsBalance >= requiredBalance(DEFAULTS.maxDuration)) return
    setValue('maxDuration', Math.max(1, coveredMinutes(statsBalance)))
  }, [statsBalance, active, getValues, setValue])
  const shownBalance = balance.shown
  const fittedMinutes = shownBalance !== null && shownBalance < requiredBalance(DEFAULTS.maxDuration) ? coveredMinutes(shownBalance) : 0
  return !active && fittedMinutes >= 1 && maxDuration === fittedMinutes && shownBalance !== null ? { minutes: fittedMinutes, balance: shownBalance } : null
}
