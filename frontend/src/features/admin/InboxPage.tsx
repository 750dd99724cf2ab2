/** Admin Form Inbox (spec sections 2, 4, 8): contact and enterprise submissions, 10 per page,
 * a details modal, and a one-way "mark as read" that updates the row in place. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Check, Eye } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Pager } from '@/components/Pager'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Modal } from '@/components/Modal'
import { cn } from '@/lib/cn'
import { formatDateTime } from '@/lib/format'
import { notify } from '@/lib/toast'
import { adminApi, inboxQuery, INBOX_PAGE_SIZE, unreadQuery, type Submission } from './api'
import { PageHeader, TableHead, TableState, TD } from '@/components/kit'

const typeLabel = (s: Submission) => (s.form_type === 'contact' ? 'Contact' : 'Enterprise')

export function InboxPage() {
  const [page, setPage] = useState(1)
  const [open, setOpen] = useState<Submission | null>(null)
  const inbox = useQuery(inboxQuery(page))
  const client = useQueryClient()
  const rows = inbox.data?.data ?? []
  const pagination = inbox.data?.pagination
  useEffect(() => {
    if (inbox.isError) notify.error('Failed to load form submissions')
  }, [inbox.isError])

  const mark = useMutation({
    mutationFn: (s: Submission) => adminApi.markRead(s.id),
    onSuccess: (res) => {
      // The list updates locally: the row turns read, the unread count drops.
      client.setQueryData(inboxQuery(page).queryKey, (old) =>
        old ? { ...old, unread: Math.max(0, old.unread - 1), data: old.data.map((s) => (s.id === res.data.id ? res.data : s)) } : old,
      )
      client.setQueryData(unreadQuery().queryKey, (n: number | undefined) => Math.max(0, (n ?? 1) - 1))
      setOpen((current) => (current?.id === res.data.id ? res.data : current))
      notify.success('Submission marked as read')
    },
    onError: () => notify.error('Failed to mark submission as read'),
  })

  const markButton = (s: Submission) => (
    <Button variant={s.is_readed ? 'ghost' : 'secondary'} size="sm" disabled={s.is_readed || mark.isPending} onClick={() => mark.mutate(s)} aria-label={`Mark ${s.email} as read`}>
      <Check className="h-4 w-4" aria-hidden /> {s.is_readed ? 'Read' : 'Mark read'}
    </Button>
  )

  return (
    <div className="space-y-6">
      <PageHeader title="Form Inbox" subtitle={inbox.data ? `${inbox.data.unread} unread` : 'Contact and enterprise forms.'} />
      <Card className="overflow-hidden">
        <div className="overflow-x-auto">
          <table className="w-full min-w-[640px]" data-testid="inbox-table">
            <TableHead labels={['Form Type', 'Email', 'Message', 'Actions']} />
            <tbody className="divide-y divide-slate-100">
              <TableState columns={4} rows={INBOX_PAGE_SIZE} loading={inbox.isPending} error={inbox.isError ? 'Failed to load form submissions' : null} empty="No submissions yet." hasRows={rows.length > 0} />
              {!inbox.isPending &&
                !inbox.isError &&
                rows.map((s) => (
                  <tr key={s.id} className={cn(!s.is_readed && 'bg-indigo-50/40')} data-read={s.is_readed}>
                    <td className={TD}>
                      <span className={cn('inline-flex items-center gap-1.5', !s.is_readed && 'font-semibold text-slate-900')}>
                        {!s.is_readed && <span className="h-2 w-2 rounded-full bg-indigo-600" aria-label="Unread" />}
                        {typeLabel(s)}
                      </span>
                    </td>
                    <td className={TD}>{s.email}</td>
                    <td className={`${TD} max-w-sm`}>
                      <p className="truncate">{s.message}</p>
                    </td>
                    <td className={TD}>
                      <div className="flex items-center gap-1">
                        {markButton(s)}
                        <Button variant="ghost" size="sm" onClick={() => setOpen(s)} aria-label={`View details of ${s.email}`}>
                          <Eye className="h-4 w-4" aria-hidden /> View
                        </Button>
                      </div>
                    </td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
        {pagination && pagination.total > pagination.per_page && <Pager page={page} lastPage={pagination.last_page} onPage={setPage} busy={inbox.isFetching} />}
      </Card>
      <Modal open={open !== null} onOpenChange={(o) => !o && setOpen(null)} title="Submission Details" footer={open ? markButton(open) : undefined}>
        {open && (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm" data-testid="submission-details">
            {(
              [
                ['Form type', typeLabel(open)],
                ['Received', formatDateTime(open.created_at)],
                ['Name', open.name],
                ['Email', open.email],
                ['Phone', open.phone],
                ['Website', open.website],
                ['Applicant type', open.entity_type],
                ['Calls per month', open.phone_calls_per_month?.toLocaleString()],
                ['Use case', open.use_case],
                ['Message', open.message],
              ] as [string, string | null | undefined][]
            )
              .filter(([, v]) => v)
              .map(([k, v]) => (
                <div key={k} className="contents">
                  <dt className="font-medium text-slate-500">{k}</dt>
                  <dd className="whitespace-pre-wrap break-words text-slate-900">{v}</dd>
                </div>
              ))}
          </dl>
        )}
      </Modal>
    </div>
  )
}
