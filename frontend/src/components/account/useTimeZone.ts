/** The user's own time zone: read from the profile (the browser's until the profile says), and
 * stored once from the browser when a signed-in user's profile has none. */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { browserTimeZone } from '@/lib/timezone'
import { profileQuery, updateTimeZone } from './api'

/** The zone times are shown in for this user. */
export function useUserTimeZone(): string {
  const profile = useQuery(profileQuery)
  return profile.data?.timezone || browserTimeZone() || 'UTC'
}

/** A signed-in user whose profile has no zone yet (`timezone: null`) gets the browser's, once.
 * A failure is left quiet: the Account page shows the zone and lets the user set it. */
export function useStoreBrowserTimeZone(): void {
  const queryClient = useQueryClient()
  const profile = useQuery(profileQuery)
  const tried = useRef(false)
  useEffect(() => {
    if (tried.current || !profile.data || profile.data.timezone !== null) return
    const zone = browserTimeZone()
    if (!zone) return
    tried.current = true
    updateTimeZone(zone)
      .then((result) => queryClient.setQueryData(profileQuery.queryKey, result.data))
      .catch(() => undefined)
  }, [profile.data, queryClient])
}
