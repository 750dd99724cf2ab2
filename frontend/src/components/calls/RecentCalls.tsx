import { FundsHint } from '@/components/FundsHint'
import { useQuery } from '@tanstack/react-query'
import { Link } from 'react-router'
import { StatusBadge } from '@/components/StatusBadge'
import { Button } from '@/components/ui/button'
import { Card, Skeleton } from '@/components/ui/card'
import { callCost, formatCallDuration, formatCurrency, formatDateTime } from '@/lib/format'
import { callsQuery } from './api'

/** The latest calls (5 on the dashboard, 2 on send-call) with a "View all calls" button. */
export function RecentCalls({ userId, limit, viewAllTo, title = 'Recent Call History' }: { userId: number; limit: number; viewAllTo: string; title?: string }) {
  const calls = useQuery(callsQuery(userId, 1, limit))
  const rows = calls.data?.data ?? []
  return (
    <Card className="overflow-hidden">
      <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-5 py-4">
        <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
        <Button asChild variant="secondary" size="sm">
          <Link to={viewAllTo}>View all calls</Link>
        </Button>
      </div>
      {calls.isPending ? (
        <ul className="divide-y divide-slate-100" aria-label="Loading recent calls">
          {Array.from({ length: limit }, (_, i) => (
            <li key={i} className="flex items-center gap-4 px-5 py-3">
              <Skeleton className="h-4 w-32" />
              <Skeleton className="h-4 w-24" />
              <Skeleton className="ml-auto h-5 w-20" />
            </li>
          ))}
        </ul>
      ) : calls.isError ? (
        <p role="alert" className="px-5 py-6 text-sm text-rose-600">
          Failed to load recent calls: {calls.error.message}
        </p>
      ) : rows.length === 0 ? (
        <div className="px-5 py-8 text-center text-sm text-slate-500">
          <p>No recent calls.</p>
          <FundsHint />
        </div>
      ) : (
        <ul className="divide-y divide-slate-100" data-testid="recent-calls">
          {rows.map((call) => (
            <li key={call.call_id} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-5 py-3 text-sm">
              <span className="font-medium text-slate-900">{call.to}</span>
              <span className="text-slate-500">{formatDateTime(call.created_at)}</span>
              <span className="tabular-nums text-slate-600">{formatCallDuration(call.corrected_duration)}</span>
              <span className="tabular-nums text-slate-600">{formatCurrency(callCost(call.corrected_duration))}</span>
              <span className="ml-auto">
                <StatusBadge status={call.status} outcome={call.outcome} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}
