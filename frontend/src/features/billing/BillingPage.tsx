/** /dashboard/billing: the balance (available, and held by calls under way), add funds by card
 * through Stripe, and the billing history. `?amount=NN` preselects an amount (a plan's link).
 * docs/billing.md. */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { FlaskConical, Hourglass, Wallet } from 'lucide-react'
import { useSearchParams } from 'react-router'
import { PageHeader } from '@/components/kit'
import { Section } from '@/components/panels'
import { StatCard } from '@/components/StatCard'
import { Skeleton } from '@/components/ui/card'
import { BILLING_RULE } from '@/lib/billing'
import { formatCurrency } from '@/lib/format'
import { useRealtime } from '@/lib/realtime'
import { AddFunds } from './AddFunds'
import { AutoRecharge } from './AutoRecharge'
import { amountFromQuery } from './amount'
import { billingKeys, summaryQuery } from './api'
import { BillingHistory } from './BillingHistory'

export function BillingPage() {
  const client = useQueryClient()
  const [params] = useSearchParams()
  const summary = useQuery(summaryQuery())
  useRealtime({
    onBalanceUpdate: () => {
      void client.invalidateQueries({ queryKey: billingKeys.summary })
      void client.invalidateQueries({ queryKey: billingKeys.allHistory })
    },
  })
  const data = summary.data

  return (
    <div className="space-y-6">
      <PageHeader title="Billing" subtitle={`Calls cost ${BILLING_RULE}. Add funds by card; the balance rises as soon as the payment is confirmed.`} />
      {summary.isError && (
        <p role="alert" className="rounded-md bg-rose-50 px-4 py-3 text-sm text-rose-700">
          Failed to load your balance. Reload the page to try again.
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        {data ? (
          <>
            <StatCard label="Available balance" icon={Wallet}>
              <p className="mt-3 text-3xl font-bold tabular-nums text-slate-900" data-testid="balance-available">
                {formatCurrency(data.available)}
              </p>
              <p className="mt-1 text-xs text-slate-500">What new calls can use.</p>
            </StatCard>
            <StatCard label="Held by calls in progress" icon={Hourglass} tone="emerald">
              <p className="mt-3 text-3xl font-bold tabular-nums text-slate-900" data-testid="balance-held">
                {formatCurrency(data.held)}
              </p>
              <p className="mt-1 text-xs text-slate-500">Reserved when a call starts; what it does not use comes back when it ends.</p>
            </StatCard>
          </>
        ) : (
          summary.isPending && (
            <>
              <Skeleton className="h-24" />
              <Skeleton className="h-24" />
            </>
          )
        )}
      </div>
      {data?.test_mode && (
        <p className="flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900" data-testid="payments-test-mode">
          <FlaskConical className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          Test mode: payments go to localstripe, a local stand-in for Stripe that speaks its protocol. No card is charged. An operator switches to real payments with Stripe keys (docs/billing.md).
        </p>
      )}
      <Section id="add-funds" title="Add funds" description="Pick an amount or type one, then pay by card. Card details go to Stripe, never to our servers.">
        {data ? <AddFunds summary={data} initialAmount={amountFromQuery(params.get('amount'), data.top_up_min, data.top_up_max)} /> : <div className="px-5 py-5"><Skeleton className="h-40" /></div>}
      </Section>
      <Section id="auto-recharge" title="Auto-recharge" description="Keep calls running: when a call leaves your balance under a threshold, your saved card is charged an amount you choose.">
        {data ? <AutoRecharge key={`${data.saved_card}-${data.auto_recharge.enabled}-${data.auto_recharge.threshold}-${data.auto_recharge.amount}`} summary={data} /> : <div className="px-5 py-5"><Skeleton className="h-24" /></div>}
      </Section>
      <BillingHistory />
    </div>
  )
}
