/** Auto-recharge with the saved card: when a call's charge leaves the balance under the
 * threshold, the card is charged the amount, at most once per period. A refused charge turns
 * it off (the reason is shown). docs/billing.md. */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { CreditCard, Trash2 } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { ApiError, messageOf } from '@/lib/api'
import { formatDateTime } from '@/lib/format'
import { notify } from '@/lib/toast'
import { amountError, dollars, thresholdError } from './amount'
import { billingApi, billingKeys, type BillingSummary } from './api'

const WHOLE_RE = /^\d+$/

export function AutoRecharge({ summary }: { summary: BillingSummary }) {
  const client = useQueryClient()
  const settings = summary.auto_recharge
  const [enabled, setEnabled] = useState(settings.enabled)
  const [threshold, setThreshold] = useState(String(settings.threshold))
  const [amount, setAmount] = useState(String(settings.amount))
  const [errors, setErrors] = useState<{ threshold?: string; amount?: string }>({})
  const refresh = () => client.invalidateQueries({ queryKey: billingKeys.summary })
  const save = useMutation({
    mutationFn: () => billingApi.setAutoRecharge({ enabled, threshold: Number(threshold.replace(/^\$/, '')), amount: Number(amount.replace(/^\$/, '')) }),
    onSuccess: (res) => {
      notify.success(res.message)
      void refresh()
    },
    onError: (error) =>
      error instanceof ApiError && (error.field('threshold') || error.field('amount'))
        ? setErrors({ threshold: error.field('threshold'), amount: error.field('amount') })
        : notify.error(messageOf(error, 'Failed to save auto-recharge')),
  })
  const forget = useMutation({
    mutationFn: billingApi.forgetCard,
    onSuccess: (res) => {
      notify.success(res.message)
      setEnabled(false)
      void refresh()
    },
    onError: (error) => notify.error(messageOf(error, 'Failed to remove the card')),
  })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const amountText = amount.trim()
    const found = {
      threshold: thresholdError(threshold, summary.top_up_max) ?? undefined,
      amount: (WHOLE_RE.test(amountText.replace(/^\$/, '')) ? amountError(amountText, summary.top_up_min, summary.top_up_max) : 'Enter whole dollars, like 25.') ?? undefined,
    }
    setErrors(found)
    if (found.threshold || found.amount) return
    save.mutate()
  }

  if (!summary.saved_card)
    return <p className="px-5 py-5 text-sm text-slate-600">No saved card. Tick "Save this card for auto-recharge" when you pay, then turn auto-recharge on here.</p>

  return (
    <form onSubmit={submit} noValidate className="space-y-4 px-5 py-5" aria-label="Auto-recharge">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="flex items-center gap-2 text-sm text-slate-700" data-testid="saved-card">
          <CreditCard className="h-4 w-4 text-slate-400" aria-hidden /> {summary.saved_card}
        </p>
        <Button type="button" variant="ghost" size="sm" onClick={() => forget.mutate()} disabled={forget.isPending}>
          <Trash2 className="h-4 w-4" aria-hidden /> Remove card
        </Button>
      </div>
      {settings.failure && (
        <p role="alert" className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-700">
          The last auto-recharge failed and was turned off: {settings.failure}
        </p>
      )}
      <label className="flex items-center gap-2 text-sm font-medium text-slate-700">
        <input type="checkbox" className="h-4 w-4 rounded border-slate-300 accent-indigo-600" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        Top up automatically
      </label>
      <div className="grid max-w-lg gap-4 sm:grid-cols-2">
        <Field id="recharge-threshold" label="When the balance falls under (USD)" error={errors.threshold}>
          <Input id="recharge-threshold" inputMode="numeric" value={threshold} maxLength={8} onChange={(e) => setThreshold(e.target.value)} aria-invalid={!!errors.threshold} />
        </Field>
        <Field id="recharge-amount" label="Add (USD)" error={errors.amount} hint={`From ${dollars(summary.top_up_min)} to ${dollars(summary.top_up_max)}.`}>
          <Input id="recharge-amount" inputMode="numeric" value={amount} maxLength={8} onChange={(e) => setAmount(e.target.value)} aria-invalid={!!errors.amount} />
        </Field>
      </div>
      <p className="text-xs text-slate-500">
        At most once every {settings.period_hours} hours.
        {settings.last_recharge_at && ` Last auto-recharge: ${formatDateTime(settings.last_recharge_at)}.`}
      </p>
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : 'Save auto-recharge'}
      </Button>
    </form>
  )
}
