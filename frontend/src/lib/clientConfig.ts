/** What the server tells the web app before anyone signs in: the sign-in providers configured
 * (the Google button shows only when Google sign-in is set up) and the region phone numbers
 * without "+" are read in. */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from './api'

export const fetchClientConfig = () => unwrap(api.GET('/api/v1/client-config'), 'Failed to load the app configuration')

export const clientConfigQuery = queryOptions({
  queryKey: ['client-config'],
  queryFn: fetchClientConfig,
  staleTime: Infinity,
})

/** Whether Google sign-in is configured: false until the server has said so (the button never
 * flashes on a server without it). */
export function useGoogleSignIn(): boolean {
  return useQuery(clientConfigQuery).data?.sign_in.google ?? false
}

/** The region phone numbers without "+" are read in (US until the server has said). */
export function usePhoneRegion(): string {
  return useQuery(clientConfigQuery).data?.phone_region ?? 'US'
}
