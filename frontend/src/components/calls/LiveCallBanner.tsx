import { useQuery } from '@tanstack/react-query'
import { PhoneCall } from 'lucide-react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { liveCallsQuery } from './api'
import { useCallListUpdates } from './useCallListUpdates'

const STATES: Record<string, string> = { queued: 'Calling…', ringing: 'Ringing…', 'in-progress': 'Connected' }

/** The user's calls still going on, each with a way back to it (Send Call picks it up). Shows
 * nothing when there are none; the list follows the socket. */
export function LiveCallBanner({ userId }: { userId: number }) {
  useCallListUpdates(userId)
  const live = useQuery(liveCallsQuery(userId))
  const calls = live.data ?? []
  if (calls.length === 0) return null
  return (
    <Card className="border-emerald-200 bg-emerald-50/60 p-4" role="status" aria-label="Calls in progress">
      <ul className="space-y-2">
        {calls.map((call) => (
          <li key={call.call_id} className="flex flex-wrap items-center gap-3">
            <PhoneCall className="h-5 w-5 text-emerald-700" aria-hidden />
            <span className="text-sm text-slate-800">
              Call to <span className="font-semibold tabular-nums">{call.to}</span> in progress: {STATES[call.status] ?? call.status}
            </span>
            <Button asChild size="sm" className="ml-auto">
              <Link to="/dashboard/send-call">Open live call</Link>
            </Button>
          </li>
        ))}
      </ul>
    </Card>
  )
}
