/** Admin Reports (spec section 2): reported calls, 10 per page, the reason in a modal. */
import { useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { Pager } from '@/components/Pager'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Modal } from '@/components/Modal'
import { notify } from '@/lib/toast'
import { reportsQuery, REPORTS_PAGE_SIZE } from './api'
import { PageHeader, TableHead, TableState, TD } from '@/components/kit'
import { shortId } from './rules'

export function ReportsPage() {
  const [page, setPage] = useState(1)
  const [reason, setReason] = useState<string | null>(null)
  const reports = useQuery(reportsQuery(page))
  const rows = reports.data?.reports ?? []
  useEffect(() => {
    if (reports.isError) notify.error(`Failed to load reports: ${reports.error.message}`)
  }, [reports.isError, reports.error])

  return (
    <div className="space-y-6">
      <PageHeader title="Reported Calls" subtitle="Calls users flagged, newest first." />
      <Card className="overflow-hidden">
        <div className="overflow-x-auto">
          <table className="w-full min-w-[720px]" data-testid="reports-table">
            <TableHead labels={['Call ID', 'User', 'Email', 'Reason', 'Date']} />
            <tbody className="divide-y divide-slate-100">
              <TableState
                columns={5}
                rows={REPORTS_PAGE_SIZE}
                loading={reports.isPending}
                error={reports.isError ? 'Failed to load reports. Please try again later.' : null}
                empty="No reports found."
                hasRows={rows.length > 0}
              />
              {!reports.isPending &&
                !reports.isError &&
                rows.map((r) => (
                  <tr key={r.id}>
                    <td className={`${TD} font-mono text-xs`} title={r.call_id}>
                      {shortId(r.call_id)}
                    </td>
                    <td className={TD}>{r.username ?? 'Deleted user'}</td>
                    <td className={TD}>{r.email ?? '—'}</td>
                    <td className={`${TD} max-w-xs`}>
                      <button type="button" className="block max-w-full truncate text-left text-indigo-700 hover:underline" onClick={() => setReason(r.reason)}>
                        {r.reason || 'No reason provided.'}
                      </button>
                    </td>
                    <td className={`${TD} whitespace-nowrap`}>{new Date(r.created_at).toLocaleDateString(undefined, { dateStyle: 'medium' })}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
        <Pager page={page} lastPage={reports.data?.pagination.last_page ?? 1} onPage={setPage} busy={reports.isFetching} />
      </Card>
      <Modal
        open={reason !== null}
        onOpenChange={(open) => !open && setReason(null)}
        title="Report Reason"
        footer={
          <Button variant="secondary" onClick={() => setReason(null)}>
            Close
          </Button>
        }
      >
        <p className="whitespace-pre-wrap text-sm text-slate-700">{reason?.trim() ? reason : 'No reason provided.'}</p>
      </Modal>
    </div>
  )
}
