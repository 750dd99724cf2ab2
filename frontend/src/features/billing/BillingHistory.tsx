/** The ledger as the user's billing history: every top-up, hold, charge, release, refund and
 * adjustment with the call it belongs to, a page at a time, and the whole of it as CSV. */
import { useMutation, useQuery } from '@tanstack/react-query'
import { Download } from 'lucide-react'
import { useState } from 'react'
import { TD } from '@/components/kit'
import { Pager } from '@/components/Pager'
import { Section, Table } from '@/components/panels'
import { Button } from '@/components/ui/button'
import { messageOf } from '@/lib/api'
import { saveBlob } from '@/lib/download'
import { formatCurrency, formatDateTime } from '@/lib/format'
import { cn } from '@/lib/cn'
import { notify } from '@/lib/toast'
import { billingApi, historyQuery, type HistoryEntry } from './api'

const KIND_LABEL: Record<HistoryEntry['kind'], string> = {
  top_up: 'Top-up',
  hold: 'Hold',
  release: 'Release',
  charge: 'Charge',
  refund: 'Refund',
  adjustment: 'Adjustment',
  starter_credit: 'Starter credit',
}

function signed(amount: number): string {
  return amount < 0 ? `−${formatCurrency(-amount)}` : `+${formatCurrency(amount)}`
}

export function BillingHistory() {
  const [page, setPage] = useState(1)
  const history = useQuery(historyQuery(page))
  const rows = history.data?.data ?? []
  const pagination = history.data?.pagination
  const exportCsv = useMutation({
    mutationFn: billingApi.exportCsv,
    onSuccess: (blob) => saveBlob(blob, 'billing-history.csv'),
    onError: (error) => notify.error(messageOf(error, 'Failed to export the billing history')),
  })
  return (
    <Section
      id="billing-history"
      title="Billing history"
      description="Every change to your balance: top-ups, the hold a call places when it starts, its charge and the release of the rest when it ends, refunds."
      action={
        <Button variant="secondary" onClick={() => exportCsv.mutate()} disabled={exportCsv.isPending}>
          <Download className="h-4 w-4" aria-hidden /> Export CSV
        </Button>
      }
    >
      <Table
        testId="billing-history"
        className="min-w-[720px]"
        labels={['Date', 'Type', 'Amount', 'Balance after', 'Details']}
        skeletonRows={3}
        loading={history.isPending}
        error={history.isError ? 'Failed to load the billing history' : null}
        empty="No balance changes yet. Add funds above to place your first call."
      >
        {rows.map((entry) => (
          <tr key={entry.id}>
            <td className={`${TD} whitespace-nowrap`}>{formatDateTime(entry.created_at)}</td>
            <td className={TD}>{KIND_LABEL[entry.kind]}</td>
            <td className={cn(TD, 'whitespace-nowrap font-medium tabular-nums', entry.amount < 0 ? 'text-rose-700' : 'text-emerald-700')}>{signed(entry.amount)}</td>
            <td className={`${TD} tabular-nums`}>{formatCurrency(entry.balance_after)}</td>
            <td className={`${TD} max-w-sm`}>
              {entry.note}
              {entry.call_id && (
                <p className="mt-0.5 font-mono text-xs text-slate-500" title={entry.call_id}>
                  Call {entry.call_id.slice(0, 8)}
                </p>
              )}
            </td>
          </tr>
        ))}
      </Table>
      {pagination && pagination.last_page > 1 && <Pager page={pagination.current_page} lastPage={pagination.last_page} onPage={setPage} busy={history.isFetching} />}
    </Section>
  )
}
