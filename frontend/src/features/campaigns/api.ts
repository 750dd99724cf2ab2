/** The campaigns' calls (docs/campaigns.md): the list, one campaign with its counters, its
 * contacts, the zones preview; create and edit a draft, load its contacts, start, pause, resume,
 * cancel, export the results. */
import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { api, ApiError, fileBody, unwrap } from '@/lib/api'
import type { components } from '@/lib/api-schema'
import type { Outcome } from '@/lib/outcomes'

type S = components['schemas']
export type Campaign = S['CampaignOut']
export type CampaignBody = S['CampaignIn']
export type LoadReport = S['LoadReport']
export type Contact = S['ContactOut']
export type Zone = S['ZoneOut']
export type CampaignState = Campaign['state']
export type ContactStatus = Contact['status']
export type Action = 'start' | 'pause' | 'resume' | 'cancel'

export const CAMPAIGNS_PAGE_SIZE = 20
export const CONTACTS_PAGE_SIZE = 25
export const RETRY_OUTCOMES = ['no-answer', 'busy', 'voicemail', 'failed'] as const satisfies readonly Outcome[]
export const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const

export const campaignKeys = {
  all: ['campaigns'] as const,
  one: (id: string) => ['campaigns', 'one', id] as const,
  contacts: (id: string) => ['campaigns', 'one', id, 'contacts'] as const,
  zones: (id: string) => ['campaigns', 'one', id, 'zones'] as const,
}

const path = (campaign_id: string) => ({ params: { path: { campaign_id } } })

export const campaignsQuery = (page: number) =>
  queryOptions({
    queryKey: [...campaignKeys.all, 'page', page],
    queryFn: () => unwrap(api.GET('/api/v1/campaigns', { params: { query: { page, per_page: CAMPAIGNS_PAGE_SIZE } } }), 'Failed to load campaigns'),
    placeholderData: keepPreviousData,
  })

export const campaignQuery = (id: string) =>
  queryOptions({
    queryKey: campaignKeys.one(id),
    queryFn: async () => (await unwrap(api.GET('/api/v1/campaigns/{campaign_id}', path(id)), 'Failed to load the campaign')).data,
  })

export interface ContactFilters {
  status?: ContactStatus
  outcome?: string
  search?: string
}

export const contactsQuery = (id: string, filters: ContactFilters, page: number) =>
  queryOptions({
    queryKey: [...campaignKeys.contacts(id), filters, page],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/campaigns/{campaign_id}/contacts', { params: { path: { campaign_id: id }, query: { ...filters, page, per_page: CONTACTS_PAGE_SIZE } } }),
        'Failed to load the contacts',
      ),
    placeholderData: keepPreviousData,
  })

export const zonesQuery = (id: string) =>
  queryOptions({
    queryKey: campaignKeys.zones(id),
    queryFn: async () => (await unwrap(api.GET('/api/v1/campaigns/{campaign_id}/zones', path(id)), 'Failed to load the time zones')).data,
  })

export const campaignsApi = {
  create: (body: CampaignBody) => unwrap(api.POST('/api/v1/campaigns', { body }), 'Failed to create the campaign'),
  update: (id: string, body: CampaignBody) => unwrap(api.PUT('/api/v1/campaigns/{campaign_id}', { ...path(id), body }), 'Failed to save the campaign'),
  act: (id: string, action: Action) =>
    unwrap(api.POST('/api/v1/campaigns/{campaign_id}/{action}', { params: { path: { campaign_id: id, action } } }), `Failed to ${action} the campaign`),
  load: async (id: string, file: File): Promise<LoadReport> => {
    const res = await unwrap(
      api.POST('/api/v1/campaigns/{campaign_id}/contacts', { ...path(id), ...fileBody(file) }),
      'Failed to load the contacts',
    )
    return res.data
  },
  exportCsv: async (id: string): Promise<Blob> => {
    const { data, response } = await api.GET('/api/v1/campaigns/{campaign_id}/export', { ...path(id), parseAs: 'blob' })
    if (!response.ok || !data) throw new ApiError('Failed to export the results', response.status)
    return data
  },
}
