/** Keeps a user's call lists current without a reload: when one of their calls rings, is
 * answered or ends (the socket says so), and when the socket reconnects (what it missed), the
 * lists, stats and live calls are fetched again. */
import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { useRealtime, type WebhookEvent } from '@/lib/realtime'
import { callKeys } from './api'

const MOVES = ['Call connected', 'Closing call stream']

export function isCallMove(event: WebhookEvent): boolean {
  return event.category === 'status' || MOVES.some((m) => (event.message ?? '').startsWith(m))
}

/** Fetch the user's call lists, stats and live calls again (a call was placed, moved or ended). */
export function refreshCallLists(queryClient: QueryClient, userId: number): void {
  for (const key of [callKeys.calls(userId), callKeys.stats(userId), callKeys.live(userId)]) {
    void queryClient.invalidateQueries({ queryKey: key })
  }
}

export function useCallListUpdates(userId: number): void {
  const queryClient = useQueryClient()
  useRealtime({
    onWebhookEvent: (event) => {
      if (isCallMove(event)) refreshCallLists(queryClient, userId)
    },
    onReconnect: () => refreshCallLists(queryClient, userId),
  })
}
