import { useQuery } from '@tanstack/react-query'
import { Copy, ExternalLink, MailOpen } from 'lucide-react'
import { useState } from 'react'
import { Pager } from '@/components/Pager'
import { Button } from '@/components/ui/button'
import { Card, Skeleton } from '@/components/ui/card'
import { cn } from '@/lib/cn'
import { formatDateTime } from '@/lib/format'
import { notify } from '@/lib/toast'
import { outboxQuery } from './api'

const STATUS_STYLE: Record<string, string> = {
  sent: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  stored: 'bg-slate-100 text-slate-700 ring-slate-200',
  pending: 'bg-amber-50 text-amber-700 ring-amber-200',
  failed: 'bg-rose-50 text-rose-700 ring-rose-200',
}

export function AdminHome() {
  return (
    <div className="space-y-8">
      <header>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Admin Dashboard</h1>
        <p className="mt-1 text-sm text-slate-500">Operate Callwright.</p>
      </header>
      <OutboxPanel />
    </div>
  )
}

function OutboxPanel() {
  const [page, setPage] = useState(1)
  const outbox = useQuery(outboxQuery(page))
  const rows = outbox.data?.data ?? []
  const lastPage = outbox.data?.pagination.last_page ?? 1

  const copy = async (link: string) => {
    try {
      await navigator.clipboard.writeText(link)
      notify.success('Link copied to clipboard')
    } catch {
      notify.error('Could not copy the link')
    }
  }

  return (
    <Card className="overflow-hidden">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-5 py-4">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">E-mail outbox</h2>
          <p className="text-sm text-slate-500">
            Every message Callwright sends. Without SMTP configured, messages stay here: share a verification or reset link
            with the person it belongs to.
          </p>
        </div>
      </div>
      {outbox.isError ? (
        <p role="alert" className="px-5 py-8 text-center text-sm text-rose-600">
          {outbox.error.message}
        </p>
      ) : outbox.isPending ? (
        <div className="space-y-3 p-5" aria-label="Loading">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-10 w-full" />
          ))}
        </div>
      ) : rows.length === 0 ? (
        <div className="flex flex-col items-center gap-2 px-5 py-12 text-center text-slate-500">
          <MailOpen className="h-8 w-8" aria-hidden />
          <p className="text-sm">No e-mails yet.</p>
        </div>
      ) : (
        <ul className="divide-y divide-slate-100" data-testid="outbox-list">
          {rows.map((m) => (
            <li key={m.id} className="flex flex-col gap-2 px-5 py-4 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0">
                <p className="truncate text-sm font-semibold text-slate-900">{m.subject}</p>
                <p className="truncate text-xs text-slate-500">
                  to <span className="font-medium text-slate-700">{m.to}</span> · {formatDateTime(m.created_at)}
                </p>
              </div>
              <div className="flex flex-none items-center gap-2">
                <span className={cn('rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset', STATUS_STYLE[m.status] ?? STATUS_STYLE.stored)}>
                  {m.status}
                </span>
                {m.link && (
                  <>
                    <Button variant="ghost" size="sm" onClick={() => copy(m.link!)} aria-label={`Copy link of message ${m.id}`}>
                      <Copy className="h-4 w-4" aria-hidden />
                    </Button>
                    <Button asChild variant="secondary" size="sm">
                      <a href={m.link} target="_blank" rel="noopener noreferrer" data-testid="outbox-link">
                        Open link <ExternalLink className="h-3.5 w-3.5" aria-hidden />
                      </a>
                    </Button>
                  </>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {lastPage > 1 && <Pager page={page} lastPage={lastPage} onPage={setPage} />}
    </Card>
  )
}
