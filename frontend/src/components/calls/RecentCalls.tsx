import { FundsHint } from '@/components/FundsHint'
import { useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { StatusBadge } from '@/components/StatusBadge'
import { Button } from '@/components/ui/button'
import { Card, Skeleton } from '@/components/ui/card'
import { callCost, formatCallDuration, formatCurrency, formatDateTime } from '@/lib/format'
import { callsQuery, liveCallsQuery } from './api'

/** Now, once a second while `ticking` (a live call's duration and cost run on screen). */
function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!ticking) return
    const id = window.setInterval(() => setNow(Date.now()), 1000)
    return () => window.clearInterval(id)
  }, [ticking])
  return now
}

/** The latest calls (5 on the dashboard, 2 on send-call) with a "View all calls" button. A call
 * going on shows its duration and cost so far, ticking from its answer; a finished call links to
 * its own page. */
export function RecentCalls({ userId, limit, viewAllTo, title = 'Recent Call History' }: { userId: number; limit: number; viewAllTo: string; title?: string }) {
  const calls = useQuery(callsQuery(userId, 1, limit))
  const live = useQuery(liveCallsQuery(userId))
  const rows = calls.data?.data ?? []
  const answeredAt = new Map<string, number>()
  for (const call of live.data ?? []) if (call.answered_at) answeredAt.set(call.call_id, Date.parse(call.answered_at))
  const now = useNow(rows.some((call) => !call.completed && answeredAt.has(call.call_id)))
  /** Seconds so far for a call going on (from its answer), else the stored duration. */
  const durationOf = (call: (typeof rows)[number]) => {
    const answered = answeredAt.get(call.call_id)
    return !call.completed && answered !== undefined ? Math.max(0, Math.floor((now - answered) / 1000)) : call.corrected_duration
  }
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
          {rows.map((call) => {
            const seconds = durationOf(call)
            const going = !call.completed && answeredAt.has(call.call_id)
            return (
            <li key={call.call_id} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-5 py-3 text-sm" data-live={going || undefined}>
              {call.completed ? (
                <Link to={`/dashboard/calls/${call.call_id}`} className="font-medium text-indigo-700 underline-offset-2 hover:underline" aria-label={`Open the call to ${call.to}`}>
                  {call.to}
                </Link>
              ) : (
                <span className="font-medium text-slate-900">{call.to}</span>
              )}
              <span className="text-slate-500">{formatDateTime(call.created_at)}</span>
              <span className="tabular-nums text-slate-600" data-testid="recent-call-duration">
                {formatCallDuration(seconds)}
              </span>
              <span className="tabular-nums text-slate-600" data-testid="recent-call-cost">
                {formatCurrency(callCost(seconds))}
              </span>
              <span className="ml-auto">
                <StatusBadge status={call.status} outcome={call.outcome} />
              </span>
            </li>
            )
          })}
        </ul>
      )}
    </Card>
  )
}
