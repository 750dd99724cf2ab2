import { useQuery } from '@tanstack/react-query'
import { Clock, PhoneCall, Wallet } from 'lucide-react'
import { useEffect } from 'react'
import { Link } from 'react-router'
import { StatCard } from '@/components/StatCard'
import { Skeleton } from '@/components/ui/card'
import { statsQuery } from '@/components/calls/api'
import { LiveCallBanner } from '@/components/calls/LiveCallBanner'
import { RecentCalls } from '@/components/calls/RecentCalls'
import { BILLING_PATH, BILLING_RULE } from '@/lib/billing'
import { cn } from '@/lib/cn'
import { balanceTextClass, formatCurrency } from '@/lib/format'
import { getUser } from '@/lib/session'
import { notify } from '@/lib/toast'


export function DashboardHome() {
  const userId = getUser()?.id ?? 0
  const stats = useQuery(statsQuery(userId))
  const name = stats.data?.name || 'User'

  useEffect(() => {
    if (stats.isError) notify.error(`Status: ${stats.error.message}`)
  }, [stats.isError, stats.error])

  return (
    <div className="space-y-8">
      <header>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Welcome, {name}</h1>
        <p className="mt-1 text-sm text-slate-500">Your calls and balance at a glance.</p>
      </header>
      <LiveCallBanner userId={userId} />
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        <StatCard label="Current Balance" icon={Wallet}>
          {stats.isPending ? (
            <Skeleton className="mt-3 h-8 w-28" />
          ) : (
            <p data-testid="balance" className={cn('mt-2 text-3xl font-bold', balanceTextClass(stats.data?.balance ?? 0))}>
              {formatCurrency(stats.data?.balance ?? 0)}
            </p>
          )}
          <p className="mt-1 text-xs text-slate-500">
            Calls cost {BILLING_RULE}.{' '}
            <Link to={BILLING_PATH} className="font-semibold text-indigo-600 hover:underline">
              Add funds
            </Link>
          </p>
        </StatCard>
        <StatCard label="Total Calls" icon={PhoneCall} tone="emerald">
          {stats.isPending ? (
            <Skeleton className="mt-3 h-8 w-16" />
          ) : (
            <p data-testid="total-calls" className="mt-2 text-3xl font-bold text-slate-900">
              {stats.data?.totalCalls ?? 0}
            </p>
          )}
        </StatCard>
        <StatCard label="Total Minutes" icon={Clock}>
          {stats.isPending ? (
            <Skeleton className="mt-3 h-8 w-20" />
          ) : (
            <p data-testid="total-minutes" className="mt-2 text-3xl font-bold text-slate-900">
              {(stats.data?.totalMinutesUsed ?? 0).toFixed(2)}
            </p>
          )}
        </StatCard>
      </div>
      <RecentCalls userId={userId} limit={5} viewAllTo="/dashboard/call-logs" />
    </div>
  )
}
