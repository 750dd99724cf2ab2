/** The signed-in user's profile as every page may read it (the Account page edits it; Send Call
 * reads the user's time zone), and the time-zone update. */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api'
import type { components } from '@/lib/api-schema'

export type Profile = components['schemas']['ProfileOut']

export const profileQuery = queryOptions({
  queryKey: ['profile'],
  queryFn: async () => (await unwrap(api.GET('/api/v1/user/profile'), 'Failed to fetch user profile')).data,
})

/** Store the user's IANA time zone (an unknown one is a 422 with `errors.timezone`). */
export const updateTimeZone = (timezone: string) => unwrap(api.PUT('/api/v1/user/timezone', { body: { timezone } }), 'Failed to update the time zone')
