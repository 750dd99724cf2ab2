/** The billing API (docs/billing.md): the balance, card top-ups, the billing history. */
import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { api, ApiError, unwrap } from '@/lib/api'
import type { components } from '@/lib/api-schema'

type S = components['schemas']
export type BillingSummary = S['BillingSummary']
export type HistoryEntry = S['HistoryEntry']
export type TopUp = S['TopUpOut']

export const HISTORY_PAGE_SIZE = 10

export const billingKeys = {
  summary: ['billing', 'summary'] as const,
  history: (page: number) => ['billing', 'history', page] as const,
  allHistory: ['billing', 'history'] as const,
}

export const summaryQuery = () =>
  queryOptions({
    queryKey: billingKeys.summary,
    queryFn: async () => (await unwrap(api.GET('/api/v1/billing'), 'Failed to load your balance')).data,
  })

export const historyQuery = (page: number) =>
  queryOptions({
    queryKey: billingKeys.history(page),
    queryFn: () =>
      unwrap(api.GET('/api/v1/billing/history', { params: { query: { page, per_page: HISTORY_PAGE_SIZE } } }), 'Failed to load the billing history'),
    placeholderData: keepPreviousData,
  })

export const billingApi = {
  createTopUp: (amount: number) => unwrap(api.POST('/api/v1/billing/top-ups', { body: { amount } }), 'Failed to start the payment'),
  cardSetup: async (saveCard: boolean) => (await unwrap(api.POST('/api/v1/billing/card-setups', { body: { save_card: saveCard } }), 'Failed to start the payment')).client_secret,
  confirm: (id: number, paymentMethodId: string, saveCard: boolean) =>
    unwrap(
      api.POST('/api/v1/billing/top-ups/{top_up_id}/confirm', { params: { path: { top_up_id: id } }, body: { payment_method_id: paymentMethodId, save_card: saveCard } }),
      'The payment failed',
    ),
  setAutoRecharge: (body: { enabled: boolean; threshold: number; amount: number }) =>
    unwrap(api.PUT('/api/v1/billing/auto-recharge', { body }), 'Failed to save auto-recharge'),
  forgetCard: () => unwrap(api.DELETE('/api/v1/billing/card'), 'Failed to remove the card'),
  topUp: async (id: number) => (await unwrap(api.GET('/api/v1/billing/top-ups/{top_up_id}', { params: { path: { top_up_id: id } } }), 'Failed to check the payment')).data,
  /** The whole history as a CSV blob (fetched with the session's token, then saved). */
  exportCsv: async (): Promise<Blob> => {
    const { data, response } = await api.GET('/api/v1/billing/history/export', { parseAs: 'blob' })
    if (!response.ok || !data) throw new ApiError('Failed to export the billing history', response.status)
    return data
  },
}
