/** The user's balance on Send Call: the stats' figure until the server says a newer one (a call
 * placed or scheduled answers with it, and every change comes as a balance-update). */
import { useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { useRealtime } from '@/lib/realtime'
import { notify } from '@/lib/toast'
import { statsQuery } from '@/features/calls/api'

export interface Balance {
  /** The balance shown (null until known). */
  shown: number | null
  /** The stats' balance (undefined until they are loaded). */
  loaded: number | undefined
  set: (balance: number) => void
}

export function useBalance(userId: number): Balance {
  const stats = useQuery(statsQuery(userId))
  const [balance, setBalance] = useState<number | null>(null)
  useEffect(() => {
    if (stats.isError) notify.error('Failed to fetch your balance')
  }, [stats.isError])
  useRealtime({
    onBalanceUpdate: (event) => {
      if (event.userId === userId) setBalance(event.newBalance)
    },
    onError: (kind) => {
      if (kind === 'balance') notify.error('Failed to receive balance updates', 'Socket Error')
    },
  })
  return { shown: balance ?? stats.data?.balance ?? null, loaded: stats.data?.balance, set: setBalance }
}
