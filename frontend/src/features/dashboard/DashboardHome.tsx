import { useQuery } from '@tanstack/react-query'
import { BadgeCheck, UserCog, Wallet } from 'lucide-react'
import { Link } from 'react-router'
import { StatCard } from '@/components/StatCard'
import { Skeleton } from '@/components/ui/card'
import { profileQuery } from '@/features/account/api'
import { cn } from '@/lib/cn'
import { balanceTone, formatCurrency, formatDate } from '@/lib/format'
import { getUserName } from '@/lib/session'

const TONE = { green: 'text-emerald-600', yellow: 'text-amber-500', red: 'text-rose-600' } as const

export function DashboardHome() {
  const profile = useQuery(profileQuery)
  const name = profile.data?.name || getUserName() || 'User'

  return (
    <div className="space-y-8">
      <header>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Welcome, {name}</h1>
        <p className="mt-1 text-sm text-slate-500">Your account at a glance.</p>
      </header>
      {profile.isError && (
        <p role="alert" className="rounded-lg bg-rose-50 px-4 py-3 text-sm text-rose-700 ring-1 ring-rose-200">
          {profile.error.message}
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        <StatCard label="Current Balance" icon={Wallet}>
          {profile.isPending ? (
            <Skeleton className="mt-3 h-8 w-28" />
          ) : (
            <p data-testid="balance" className={cn('mt-2 text-3xl font-bold', TONE[balanceTone(profile.data?.balance ?? 0)])}>
              {formatCurrency(profile.data?.balance ?? 0)}
            </p>
          )}
          <p className="mt-1 text-xs text-slate-500">Calls are billed at $0.49 per minute.</p>
        </StatCard>
        <StatCard label="Account" icon={BadgeCheck} tone="emerald">
          {profile.isPending ? (
            <>
              <Skeleton className="mt-3 h-5 w-44" />
              <Skeleton className="mt-2 h-4 w-32" />
            </>
          ) : profile.data ? (
            <>
              <p className="mt-2 truncate font-semibold text-slate-900">{profile.data.email}</p>
              <p className="mt-1 text-xs text-slate-500">Member since {formatDate(profile.data.created_at)}</p>
            </>
          ) : null}
          <Link to="/dashboard/account" className="mt-3 inline-flex items-center gap-1.5 text-sm font-semibold text-indigo-600 hover:underline">
            <UserCog className="h-4 w-4" aria-hidden /> Account settings
          </Link>
        </StatCard>
      </div>
    </div>
  )
}
