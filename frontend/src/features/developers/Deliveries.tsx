/** The delivery log: each event sent to each target, filterable, with its attempts, payload
 * and a Resend button. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Eye, RotateCw } from 'lucide-react'
import { useState } from 'react'
import { Select, TD } from '@/components/kit'
import { Modal } from '@/components/Modal'
import { Pager } from '@/components/Pager'
import { Button } from '@/components/ui/button'
import { messageOf } from '@/lib/api'
import { cn } from '@/lib/cn'
import { formatDateTime } from '@/lib/format'
import { notify } from '@/lib/toast'
import { deliveriesQuery, deliveryQuery, DELIVERIES_PAGE_SIZE, DELIVERY_STATUSES, developersApi, devKeys, endpointsQuery, EVENTS, type DeliveryFilters } from './api'
import { Section, Table } from '@/components/panels'

const TONE: Record<string, string> = {
  delivered: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  pending: 'bg-amber-50 text-amber-700 ring-amber-200',
  failed: 'bg-rose-50 text-rose-700 ring-rose-200',
  cancelled: 'bg-slate-100 text-slate-600 ring-slate-200',
}

function StatusPill({ status }: { status: string }) {
  return <span className={cn('inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset', TONE[status] ?? TONE.cancelled)}>{status}</span>
}

function pretty(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2)
  } catch {
    return payload
  }
}

function DeliveryDetails({ id }: { id: string }) {
  const delivery = useQuery(deliveryQuery(id))
  const client = useQueryClient()
  const resend = useMutation({
    mutationFn: () => developersApi.resend(id),
    onSuccess: (data) => {
      client.setQueryData(deliveryQuery(id).queryKey, data)
      void client.invalidateQueries({ queryKey: devKeys.deliveries })
      notify.success('Resend queued')
    },
    onError: (error) => notify.error(messageOf(error, 'Failed to resend the delivery')),
  })
  if (delivery.isPending) return <p className="text-sm text-slate-500">Loading…</p>
  if (delivery.isError)
    return (
      <p role="alert" className="text-sm text-rose-600">
        {messageOf(delivery.error, 'Failed to load the delivery')}
      </p>
    )
  const d = delivery.data
  return (
    <div className="space-y-4" data-testid="delivery-details">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-medium text-slate-500">Event</dt>
        <dd className="font-mono">{d.event}</dd>
        <dt className="font-medium text-slate-500">Target</dt>
        <dd className="break-all font-mono text-xs">{d.url}</dd>
        <dt className="font-medium text-slate-500">Status</dt>
        <dd>
          <StatusPill status={d.status} />
          {d.status === 'pending' && d.next_attempt_at && <span className="ml-2 text-xs text-slate-500">next attempt {formatDateTime(d.next_attempt_at)}</span>}
        </dd>
        <dt className="font-medium text-slate-500">webhook-id</dt>
        <dd className="font-mono text-xs">{d.id}</dd>
      </dl>
      <div className="flex justify-end">
        <Button size="sm" onClick={() => resend.mutate()} disabled={resend.isPending}>
          <RotateCw className="h-4 w-4" aria-hidden /> Resend
        </Button>
      </div>
      <div>
        <h3 className="mb-2 text-sm font-semibold text-slate-900">Attempts</h3>
        {d.attempts_log.length === 0 ? (
          <p className="text-sm text-slate-500">No attempt yet.</p>
        ) : (
          <ol className="space-y-2" aria-label="Attempts">
            {d.attempts_log.map((a) => (
              <li key={a.id} className="rounded-lg border border-slate-200 p-3 text-sm">
                <div className="flex flex-wrap items-center gap-3">
                  <span className={cn('font-semibold', a.status_code && a.status_code < 300 ? 'text-emerald-700' : 'text-rose-700')}>{a.status_code ?? 'No answer'}</span>
                  <span className="text-slate-500">{formatDateTime(a.attempted_at)}</span>
                  <span className="text-slate-500">{a.response_ms} ms</span>
                </div>
                {a.error && <p className="mt-1 text-rose-700">{a.error}</p>}
                {a.response_excerpt && <pre tabIndex={0} aria-label="Response" className="mt-1 max-h-24 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2 text-xs text-slate-700">{a.response_excerpt}</pre>}
              </li>
            ))}
          </ol>
        )}
      </div>
      <div>
        <h3 className="mb-2 text-sm font-semibold text-slate-900">Payload</h3>
        <pre tabIndex={0} aria-label="Payload" className="max-h-72 overflow-auto rounded-lg bg-slate-900 p-3 text-xs text-slate-100">{pretty(d.payload)}</pre>
      </div>
    </div>
  )
}

export function Deliveries() {
  const [filters, setFilters] = useState<DeliveryFilters>({})
  const [page, setPage] = useState(1)
  const [open, setOpen] = useState<string | null>(null)
  const deliveries = useQuery(deliveriesQuery(filters, page))
  const endpoints = useQuery(endpointsQuery())
  const rows = deliveries.data?.data ?? []
  const pagination = deliveries.data?.pagination
  const filter = (changes: DeliveryFilters) => {
    setFilters((f) => ({ ...f, ...changes }))
    setPage(1)
  }

  return (
    <Section id="webhook-deliveries" title="Delivery log" description="Every event sent to every target, newest first, with each attempt.">
      <div className="grid gap-3 border-b border-slate-200 px-5 py-3 sm:grid-cols-3">
        <Select aria-label="Filter by status" value={filters.status ?? ''} onChange={(e) => filter({ status: (e.target.value || undefined) as DeliveryFilters['status'] })}>
          <option value="">All statuses</option>
          {DELIVERY_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </Select>
        <Select aria-label="Filter by event" value={filters.event ?? ''} onChange={(e) => filter({ event: e.target.value || undefined })}>
          <option value="">All events</option>
          {EVENTS.map((event) => (
            <option key={event} value={event}>
              {event}
            </option>
          ))}
        </Select>
        <Select aria-label="Filter by endpoint" value={filters.endpoint_id ?? ''} onChange={(e) => filter({ endpoint_id: e.target.value ? Number(e.target.value) : undefined })}>
          <option value="">All targets</option>
          {(endpoints.data?.data ?? []).map((endpoint) => (
            <option key={endpoint.id} value={endpoint.id}>
              {endpoint.url}
            </option>
          ))}
        </Select>
      </div>
      <Table testId="deliveries-table" className="min-w-[760px]" labels={['Event', 'Target', 'Status', 'Attempts', 'Last status', 'Time', '']} skeletonRows={3} loading={deliveries.isPending} error={deliveries.isError ? 'Failed to load the delivery log' : null} empty="No deliveries yet.">
        {rows.map((d) => (
          <tr key={d.id}>
            <td className={`${TD} font-mono text-xs`}>{d.event}</td>
            <td className={`${TD} max-w-[16rem]`}>
              <p className="truncate font-mono text-xs" title={d.url}>
                {d.url}
              </p>
              {d.endpoint_id === null && <p className="text-xs text-slate-500">the call's webhook</p>}
            </td>
            <td className={TD}>
              <StatusPill status={d.status} />
            </td>
            <td className={TD}>{d.attempts}</td>
            <td className={TD}>{d.last_status_code ?? '—'}</td>
            <td className={`${TD} whitespace-nowrap`}>{formatDateTime(d.created_at)}</td>
            <td className={`${TD} text-right`}>
              <Button variant="ghost" size="sm" onClick={() => setOpen(d.id)} aria-label={`Open delivery ${d.id}`}>
                <Eye className="h-4 w-4" aria-hidden /> Open
              </Button>
            </td>
          </tr>
        ))}
      </Table>
      {pagination && pagination.total > DELIVERIES_PAGE_SIZE && <Pager page={page} lastPage={pagination.last_page} onPage={setPage} busy={deliveries.isFetching} />}
      <Modal open={open !== null} onOpenChange={(o) => !o && setOpen(null)} title="Delivery" wide>
        {open && <DeliveryDetails id={open} />}
      </Modal>
    </Section>
  )
}
