/** A user's card top-ups (admin): each with its status, and a refund for a paid one. A refund
 * returns the money to the card through Stripe and takes it out of the balance; the server
 * refuses a second refund, and one the balance no longer covers (docs/billing.md). */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Undo2 } from 'lucide-react'
import { useState } from 'react'
import { TD } from '@/components/kit'
import { Modal } from '@/components/Modal'
import { Pager } from '@/components/Pager'
import { ConfirmDialog, Table } from '@/components/panels'
import { Button } from '@/components/ui/button'
import { api, messageOf, unwrap } from '@/lib/api'
import type { components } from '@/lib/api-schema'
import { formatCurrency, formatDateTime } from '@/lib/format'
import { notify } from '@/lib/toast'

type TopUp = components['schemas']['TopUpOut']
const PAGE_SIZE = 10
const STATUS: Record<TopUp['status'], string> = { pending: 'Not paid', succeeded: 'Paid', failed: 'Failed', refunded: 'Refunded' }

export function TopUpsDialog({ user, onClose, onDone }: { user: { id: number; name: string }; onClose: () => void; onDone: () => void }) {
  const client = useQueryClient()
  const [page, setPage] = useState(1)
  const [refunding, setRefunding] = useState<TopUp | null>(null)
  const key = ['admin', 'top-ups', user.id] as const
  const list = useQuery({
    queryKey: [...key, page],
    queryFn: () =>
      unwrap(api.GET('/api/v1/admin/users/{user_id}/top-ups', { params: { path: { user_id: user.id }, query: { page, per_page: PAGE_SIZE } } }), 'Failed to load the top-ups'),
    placeholderData: keepPreviousData,
  })
  const refund = useMutation({
    mutationFn: (topUp: TopUp) => unwrap(api.POST('/api/v1/admin/top-ups/{top_up_id}/refund', { params: { path: { top_up_id: topUp.id } } }), 'Failed to refund the top-up'),
    onSuccess: (res) => {
      notify.success(res.message)
      setRefunding(null)
      onDone()
      void client.invalidateQueries({ queryKey: key })
    },
    onError: (error) => {
      setRefunding(null)
      notify.error(messageOf(error, 'Failed to refund the top-up'))
    },
  })
  const rows = list.data?.data ?? []
  const pagination = list.data?.pagination
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={`Card top-ups of ${user.name}`} wide>
      <Table testId="admin-top-ups" className="min-w-[560px]" labels={['Date', 'Amount', 'Card', 'Status', '']} skeletonRows={2} loading={list.isPending} error={list.isError ? 'Failed to load the top-ups' : null} empty="No card top-ups yet.">
        {rows.map((topUp) => (
          <tr key={topUp.id}>
            <td className={`${TD} whitespace-nowrap`}>{formatDateTime(topUp.created_at)}</td>
            <td className={`${TD} tabular-nums`}>{formatCurrency(topUp.amount)}</td>
            <td className={TD}>{topUp.card ?? '—'}</td>
            <td className={TD} title={topUp.failure ?? undefined}>
              {STATUS[topUp.status]}
            </td>
            <td className={`${TD} text-right`}>
              {topUp.status === 'succeeded' && (
                <Button variant="ghost" size="sm" onClick={() => setRefunding(topUp)} aria-label={`Refund ${formatCurrency(topUp.amount)} of ${formatDateTime(topUp.created_at)}`}>
                  <Undo2 className="h-4 w-4" aria-hidden /> Refund
                </Button>
              )}
            </td>
          </tr>
        ))}
      </Table>
      {pagination && pagination.last_page > 1 && <Pager page={pagination.current_page} lastPage={pagination.last_page} onPage={setPage} busy={list.isFetching} />}
      <ConfirmDialog
        open={refunding !== null}
        title="Refund this top-up?"
        message={<>{refunding && formatCurrency(refunding.amount)} goes back to the card and out of {user.name}&apos;s balance. This cannot be undone.</>}
        confirm="Refund"
        busy={refund.isPending}
        onConfirm={() => refunding && refund.mutate(refunding)}
        onCancel={() => setRefunding(null)}
      />
    </Modal>
  )
}
