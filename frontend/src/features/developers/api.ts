/** The developers page's calls: API keys, webhook endpoints, the signing secret and the
 * delivery log (docs/webhooks.md). */
import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api'
import type { components } from '@/lib/api-schema'

type S = components['schemas']
export type ApiKey = S['ApiKeyOut']
export type Endpoint = S['EndpointOut']
export type EndpointDraft = S['EndpointIn']
export type Delivery = S['DeliveryOut']
export type DeliveryDetail = S['DeliveryDetail']

/** Every event an endpoint can take (outbox.EVENTS on the server). */
export const EVENTS = ['call.queued', 'call.started', 'call.action', 'call.ended', 'call.analyzed', 'campaign.started', 'campaign.paused', 'campaign.completed'] as const
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'cancelled'] as const
export const DELIVERIES_PAGE_SIZE = 10

export const devKeys = {
  all: ['developers'] as const,
  keys: ['developers', 'keys'] as const,
  endpoints: ['developers', 'endpoints'] as const,
  secret: ['developers', 'signing-secret'] as const,
  deliveries: ['developers', 'deliveries'] as const,
}

export const keysQuery = () =>
  queryOptions({
    queryKey: devKeys.keys,
    queryFn: () => unwrap(api.GET('/api/v1/api-keys', { params: { query: { per_page: 100 } } }), 'Failed to load API keys'),
  })

export const endpointsQuery = () =>
  queryOptions({
    queryKey: devKeys.endpoints,
    queryFn: () => unwrap(api.GET('/api/v1/webhook-endpoints', { params: { query: { per_page: 100 } } }), 'Failed to load webhook endpoints'),
  })

export const signingSecretQuery = () =>
  queryOptions({
    queryKey: devKeys.secret,
    queryFn: async () => (await unwrap(api.GET('/api/v1/developers/signing-secret'), 'Failed to load the signing secret')).secret,
    staleTime: Infinity,
  })

export interface DeliveryFilters {
  status?: (typeof DELIVERY_STATUSES)[number]
  event?: string
  endpoint_id?: number
}

export const deliveriesQuery = (filters: DeliveryFilters, page: number) =>
  queryOptions({
    queryKey: [...devKeys.deliveries, filters, page],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/webhook-deliveries', { params: { query: { ...filters, page, per_page: DELIVERIES_PAGE_SIZE } } }),
        'Failed to load the delivery log',
      ),
    placeholderData: keepPreviousData,
  })

export const deliveryQuery = (id: string) =>
  queryOptions({
    queryKey: [...devKeys.deliveries, 'one', id],
    queryFn: async () => (await unwrap(api.GET('/api/v1/webhook-deliveries/{delivery_id}', { params: { path: { delivery_id: id } } }), 'Failed to load the delivery')).data,
  })

export const developersApi = {
  createKey: (name: string) => unwrap(api.POST('/api/v1/api-keys', { body: { name } }), 'Failed to create the API key'),
  revokeKey: (id: number) => unwrap(api.DELETE('/api/v1/api-keys/{key_id}', { params: { path: { key_id: id } } }), 'Failed to revoke the API key'),
  createEndpoint: (draft: EndpointDraft) => unwrap(api.POST('/api/v1/webhook-endpoints', { body: draft }), 'Failed to add the endpoint'),
  updateEndpoint: (id: number, changes: S['EndpointUpdate']) =>
    unwrap(api.PUT('/api/v1/webhook-endpoints/{endpoint_id}', { params: { path: { endpoint_id: id } }, body: changes }), 'Failed to save the endpoint'),
  deleteEndpoint: (id: number) =>
    unwrap(api.DELETE('/api/v1/webhook-endpoints/{endpoint_id}', { params: { path: { endpoint_id: id } } }), 'Failed to delete the endpoint'),
  rotateSecret: async () => (await unwrap(api.POST('/api/v1/developers/signing-secret/rotate'), 'Failed to rotate the signing secret')).secret,
  resend: async (id: string) =>
    (await unwrap(api.POST('/api/v1/webhook-deliveries/{delivery_id}/resend', { params: { path: { delivery_id: id } } }), 'Failed to resend the delivery')).data,
}
