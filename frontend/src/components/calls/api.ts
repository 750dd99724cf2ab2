/** The calls as the user and admin areas both read them: a user's calls and stats, a call's
 * transcript and its recording's addresses. */
import { queryOptions } from '@tanstack/react-query'
import { api, ApiError, unwrap } from '@/lib/api'
import type { components } from '@/lib/api-schema'

export type CallRecord = components['schemas']['CallRecord']
export type TranscriptLine = components['schemas']['TranscriptLine']
export type CallDetails = components['schemas']['CallDetails']
export type CallAnalysis = components['schemas']['AnalysisOut']
/** One agent reply's latency in ms (stored, and live as the `turn-latency` socket event). */
export type TurnLatency = components['schemas']['TurnLatencyOut']

/** A user's calls and stats: the keys their queries start from (invalidate these). */
export const callKeys = {
  calls: (userId: number) => ['calls', userId] as const,
  stats: (userId: number) => ['stats', userId] as const,
  live: (userId: number) => ['live-calls', userId] as const,
  latency: (callId: string) => ['latency', callId] as const,
}

export type LiveCall = components['schemas']['LiveCall']

/** The user's calls still going on, with their transcript so far (picked up on load). Never
 * served from the cache: they change by the second, and a copy taken while a call rang (Recent
 * Calls') once made Send Call pick the call up without its first agent line. */
export const liveCallsQuery = (userId: number) =>
  queryOptions({
    queryKey: callKeys.live(userId),
    staleTime: 0,
    queryFn: async () =>
      (await unwrap(api.GET('/api/v1/user/{user_id}/live-calls', { params: { path: { user_id: userId } } }), 'Failed to fetch user calls')).data,
  })

/** The voices this server speaks (the first is the default). */
export const voicesQuery = queryOptions({
  queryKey: ['voices'],
  queryFn: async () => (await unwrap(api.GET('/api/v1/voices'), 'Failed to fetch voices')).voices,
  staleTime: 5 * 60_000,
})

/** A language a call can be held in, with the voices that speak it (the first the default). */
export type CallLanguage = components['schemas']['LanguageOut']
export const DEFAULT_LANGUAGE = 'en-US'

/** The languages that passed the offline speech benchmark (public: GET languages). */
export const languagesQuery = queryOptions({
  queryKey: ['languages'],
  queryFn: async () => (await unwrap(api.GET('/api/v1/languages'), 'Failed to fetch languages')).languages,
  staleTime: 5 * 60_000,
})

export const statsQuery = (userId: number) =>
  queryOptions({
    queryKey: callKeys.stats(userId),
    queryFn: async () =>
      (await unwrap(api.GET('/api/v1/user/{user_id}/stats', { params: { path: { user_id: userId } } }), 'Failed to fetch user stats')).data,
  })

/** How Call Logs narrows the list: how the calls ended, and digits of a number. */
export interface CallFilters {
  outcome?: CallRecord['outcome']
  q?: string
}

export const callsQuery = (userId: number, page: number, perPage: number, filters: CallFilters = {}) =>
  queryOptions({
    queryKey: [...callKeys.calls(userId), page, perPage, filters.outcome ?? null, filters.q ?? ''],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/user/{user_id}/calls', {
          params: {
            path: { user_id: userId },
            query: { page, per_page: perPage, ...(filters.outcome ? { outcome: filters.outcome } : {}), ...(filters.q ? { q: filters.q } : {}) },
          },
        }),
        'Failed to fetch user calls',
      ),
  })

export const fetchTranscript = async (callId: string) =>
  (await unwrap(api.GET('/api/v1/call/{call_id}/transcript', { params: { path: { call_id: callId } } }), 'Failed to fetch transcript')).data

/** A call's per-reply latency as stored (the call logs' details). */
export const latencyQuery = (callId: string) =>
  queryOptions({
    queryKey: callKeys.latency(callId),
    queryFn: async () =>
      (await unwrap(api.GET('/api/v1/call/{call_id}/latency', { params: { path: { call_id: callId } } }), 'Failed to fetch latency')).data,
  })

/** Where the recording is downloaded from (the browser sends the session cookie). */
export const downloadUrl = (callId: string) => `/api/v1/download-recording/${encodeURIComponent(callId)}`
export const playUrl = (callId: string) => `/api/v1/play-recording/${encodeURIComponent(callId)}`

/** A call with its transcript, how it ended, who answered and its stored analysis. */
export const fetchCallDetails = async (callId: string) =>
  (await unwrap(api.GET('/api/v1/call-details/{call_id}', { params: { path: { call_id: callId } } }), 'Failed to fetch call details')).data

/** The call's summary, outcome, sentiment and key facts (computed once, then stored);
 * `refresh` runs it again over the stored one. */
export const analyzeCall = async (callId: string, refresh = false) =>
  (
    await unwrap(
      api.POST('/api/v1/analyze-call/{call_id}', { params: { path: { call_id: callId } }, body: refresh ? { refresh: true } : undefined }),
      'Failed to analyse the call',
    )
  ).data

/** Everything a call's page shows: details, settings, events, times and cost. */
export type CallPageData = components['schemas']['CallPage']
export type CallEvent = components['schemas']['CallEventOut']
export type CallBilling = components['schemas']['CallBillingOut']
export type CallSettings = components['schemas']['CallSettingsOut']

/** Whose view of a call: the owner's page (`call/{id}/page`) or the admin's (`admin/calls/{id}`). */
export type CallPageScope = 'user' | 'admin'

export const callPageQuery = (callId: string, scope: CallPageScope) =>
  queryOptions({
    queryKey: ['call-page', scope, callId],
    queryFn: async () =>
      (
        await unwrap(
          scope === 'admin'
            ? api.GET('/api/v1/admin/calls/{call_id}', { params: { path: { call_id: callId } } })
            : api.GET('/api/v1/call/{call_id}/page', { params: { path: { call_id: callId } } }),
          'Failed to fetch call details',
        )
      ).data,
    // A 404 (not this user's call, or no such call) will not change on a retry.
    retry: (count, error) => count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
  })
