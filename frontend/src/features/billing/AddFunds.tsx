/** Add funds by card: an amount (a preset or typed, checked beside the field), Stripe's Card
 * Element, and the payment. The card becomes a PaymentMethod through a SetupIntent
 * (`confirmCardSetup`); the server charges it; a bank's 3-D Secure check is finished with
 * `confirmCardPayment`. The balance rises only when Stripe's signed webhook reaches the server:
 * the form waits for that (the top-up's status, and the balance-update event). */
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js'
import { useQueryClient } from '@tanstack/react-query'
import { CheckCircle2, CreditCard, Loader2, XCircle } from 'lucide-react'
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { ApiError, messageOf } from '@/lib/api'
import { formatCurrency } from '@/lib/format'
import { cn } from '@/lib/cn'
import { amountError, dollars, parseAmount, presetsWithin } from './amount'
import { billingApi, billingKeys, type BillingSummary } from './api'
import { getStripe } from './stripe'

/** How long the form waits for Stripe's webhook before saying it will come later. */
const WAIT_MS = 60_000
const POLL_MS = 1_000
/** A constant: the Card Element is created once with it. */
const CARD_OPTIONS = { hidePostalCode: false, style: { base: { fontSize: '15px', color: '#0f172a' } } }

type Phase =
  | { kind: 'idle' }
  | { kind: 'paying' }
  | { kind: 'waiting'; amount: number }
  | { kind: 'done'; amount: number }
  | { kind: 'slow'; amount: number }
  | { kind: 'error'; message: string }

interface Props {
  summary: BillingSummary
  initialAmount: string | null
}

export function AddFunds({ summary, initialAmount }: Props) {
  const stripePromise = useMemo(() => getStripe(summary.publishable_key, summary.stripe_js_url), [summary.publishable_key, summary.stripe_js_url])
  return (
    <Elements stripe={stripePromise}>
      <PaymentForm summary={summary} initialAmount={initialAmount} />
    </Elements>
  )
}

function PaymentForm({ summary, initialAmount }: Props) {
  const stripe = useStripe()
  const elements = useElements()
  const client = useQueryClient()
  const [text, setText] = useState(initialAmount ?? '25')
  const [touched, setTouched] = useState(initialAmount !== null)
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' })
  const [saveCard, setSaveCard] = useState(false)
  const alive = useRef(true)
  useEffect(() => {
    alive.current = true
    return () => {
      alive.current = false
    }
  }, [])

  const presets = presetsWithin(summary.top_up_min, summary.top_up_max)
  const error = amountError(text, summary.top_up_min, summary.top_up_max)
  const busy = phase.kind === 'paying' || phase.kind === 'waiting'
  const hint = `From ${dollars(summary.top_up_min)} to ${dollars(summary.top_up_max)}.`

  const waitForCredit = async (id: number, amount: number) => {
    setPhase({ kind: 'waiting', amount })
    const until = Date.now() + WAIT_MS
    while (alive.current && Date.now() < until) {
      const topUp = await billingApi.topUp(id).catch(() => null)
      if (topUp?.status === 'succeeded') {
        setPhase({ kind: 'done', amount })
        setSaveCard(false)
        break
      }
      if (topUp?.status === 'failed') {
        setPhase({ kind: 'error', message: topUp.failure ?? 'The payment failed.' })
        break
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    }
    if (alive.current && Date.now() >= until) setPhase({ kind: 'slow', amount })
    void client.invalidateQueries({ queryKey: billingKeys.summary })
    void client.invalidateQueries({ queryKey: billingKeys.allHistory })
  }

  const pay = async () => {
    const card = elements?.getElement(CardElement)
    if (!stripe || !card) return
    const amount = parseAmount(text)
    setPhase({ kind: 'paying' })
    try {
      const created = await billingApi.createTopUp(amount)
      const setupSecret = await billingApi.cardSetup(saveCard)
      const setup = await stripe.confirmCardSetup(setupSecret, { payment_method: { card } })
      if (setup.error || !setup.setupIntent) throw new Error(setup.error?.message ?? 'Your card could not be used.')
      const method = setup.setupIntent.payment_method
      const methodId = typeof method === 'string' ? method : method?.id
      if (!methodId) throw new Error('Your card could not be used.')
      const confirmed = await billingApi.confirm(created.data.id, methodId, saveCard)
      if (confirmed.payment_status === 'requires_action') {
        const action = await stripe.confirmCardPayment(confirmed.client_secret)
        if (action.error) throw new Error(action.error.message ?? 'The card check failed.')
      }
      await waitForCredit(created.data.id, amount)
    } catch (failure) {
      if (!alive.current) return
      if (failure instanceof ApiError && failure.field('amount')) {
        setTouched(true)
        setPhase({ kind: 'error', message: failure.field('amount') ?? failure.message })
      } else {
        setPhase({ kind: 'error', message: messageOf(failure, 'The payment failed.') })
      }
    }
  }

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (error || busy) return
    void pay()
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5 px-5 py-5" aria-label="Add funds">
      <AmountField text={text} onText={setText} touched={touched} onTouched={() => setTouched(true)} error={error} presets={presets} hint={hint} disabled={busy} />
      <div className="space-y-1.5">
        <span className="block text-sm font-medium text-slate-700" id="card-label">
          Card
        </span>
        <div className="rounded-md border border-slate-300 bg-white px-3 py-3 [&_input]:mr-1 [&_input]:rounded [&_input]:border [&_input]:border-slate-300 [&_input]:px-1.5 [&_input]:py-1 [&_input]:text-sm" data-testid="card-element" aria-labelledby="card-label">
          <CardElement options={CARD_OPTIONS} />
        </div>
        {summary.test_mode && <p className="text-xs text-slate-500">Test mode: use the card 4242 4242 4242 4242, any future expiry and any 3 digits.</p>}
      </div>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" className="h-4 w-4 rounded border-slate-300 accent-indigo-600" checked={saveCard} disabled={busy} onChange={(e) => setSaveCard(e.target.checked)} />
        Save this card for auto-recharge{summary.saved_card ? ` (replaces your ${summary.saved_card})` : ''}
      </label>
      <div className="flex flex-wrap items-center gap-4">
        <Button type="submit" disabled={busy || !stripe}>
          {busy ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> : <CreditCard className="h-4 w-4" aria-hidden />}
          {phase.kind === 'paying' ? 'Paying…' : phase.kind === 'waiting' ? 'Confirming…' : error ? 'Pay' : `Pay ${formatCurrency(parseAmount(text))}`}
        </Button>
        {!stripe && <span className="text-sm text-slate-500">Loading the payment form…</span>}
      </div>
      <Outcome phase={phase} />
    </form>
  )
}

/** The amount: a preset, or typed and checked beside the field once touched. */
function AmountField({ text, onText, touched, onTouched, error, presets, hint, disabled }: { text: string; onText: (text: string) => void; touched: boolean; onTouched: () => void; error: string | null; presets: number[]; hint: string; disabled: boolean }) {
  return (
    <>
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-700">Amount</legend>
            <div className="flex flex-wrap gap-2">
              {presets.map((preset) => {
                const selected = !error && parseAmount(text) === preset
                return (
                  <button
                    key={preset}
                    type="button"
                    aria-pressed={selected}
                    disabled={disabled}
                    onClick={() => {
                      onText(String(preset))
                      onTouched()
                    }}
                    className={cn(
                      'rounded-md border px-4 py-2 text-sm font-semibold transition focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500',
                      selected ? 'border-indigo-600 bg-indigo-600 text-white' : 'border-slate-300 bg-white text-slate-700 hover:border-indigo-400',
                    )}
                  >
                    {formatCurrency(preset)}
                  </button>
                )
              })}
            </div>
          </fieldset>
          <div className="max-w-xs">
            <Field id="top-up-amount" label="Or type an amount (USD)" error={touched ? (error ?? undefined) : undefined} hint={hint}>
              <div className="relative">
                <span className="pointer-events-none absolute left-3 top-1/2 -translate-y-1/2 text-sm text-slate-500">$</span>
                <Input
                  id="top-up-amount"
                  inputMode="decimal"
                  className="pl-7"
                  value={text}
                  disabled={disabled}
                  maxLength={12}
                  onChange={(e) => onText(e.target.value)}
                  onBlur={onTouched}
                  aria-invalid={touched && !!error}
                  aria-describedby={touched && error ? 'top-up-amount-error' : undefined}
                />
              </div>
            </Field>
          </div>
    </>
  )
}

function Outcome({ phase }: { phase: Phase }) {
  if (phase.kind === 'waiting')
    return (
      <p role="status" className="flex items-center gap-2 rounded-md bg-indigo-50 px-3 py-2 text-sm text-indigo-800" data-testid="top-up-status">
        <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> Payment accepted. Waiting for Stripe to confirm it; your balance rises in a moment.
      </p>
    )
  if (phase.kind === 'done')
    return (
      <p role="status" className="flex items-center gap-2 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800" data-testid="top-up-status">
        <CheckCircle2 className="h-4 w-4" aria-hidden /> {formatCurrency(phase.amount)} added to your balance. A receipt is on its way by e-mail.
      </p>
    )
  if (phase.kind === 'slow')
    return (
      <p role="status" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800" data-testid="top-up-status">
        Your payment of {formatCurrency(phase.amount)} is still being confirmed by Stripe. It is added to your balance as soon as it is; there is no need to pay again.
      </p>
    )
  if (phase.kind === 'error')
    return (
      <p role="alert" className="flex items-center gap-2 rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-700" data-testid="top-up-status">
        <XCircle className="h-4 w-4" aria-hidden /> {phase.message}
      </p>
    )
  return null
}
