/** The user's calls: queries and mutations with the spec's fallback messages. */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api'
import type { components } from '@/lib/api-schema'

export type CallRecord = components['schemas']['CallRecord']
export type CallDetails = components['schemas']['CallDetails']
export type TranscriptLine = components['schemas']['TranscriptLine']
export type Voice = components['schemas']['VoiceOut']
export type SendCallBody = components['schemas']['SendCallIn']
export type WeekdayStats = components['schemas']['WeekdayStats']

export const CALL_LOGS_PAGE_SIZE = 7

export const statsQuery = (userId: number) =>
  queryOptions({
    queryKey: ['stats', userId],
    queryFn: async () =>
      (await unwrap(api.GET('/api/v1/user/{user_id}/stats', { params: { path: { user_id: userId } } }), 'Failed to fetch user stats')).data,
  })

export const callsQuery = (userId: number, page: number, perPage: number) =>
  queryOptions({
    queryKey: ['calls', userId, page, perPage],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/user/{user_id}/calls', { params: { path: { user_id: userId }, query: { page, per_page: perPage } } }),
        'Failed to fetch user calls',
      ),
  })

export const voicesQuery = queryOptions({
  queryKey: ['voices'],
  queryFn: async () => (await unwrap(api.GET('/api/v1/voices'), 'Failed to fetch voices')).voices,
  staleTime: 5 * 60_000,
})

export const analysisQuery = (userId: number) =>
  queryOptions({
    queryKey: ['analysis', userId],
    queryFn: async () =>
      (
        await unwrap(
          api.GET('/api/v1/user/{user_id}/analysis', {
            params: { path: { user_id: userId }, query: { tz_offset: -new Date().getTimezoneOffset() } },
          }),
          'Failed to fetch user calls',
        )
      ).data,
  })

export const callsApi = {
  send: (body: SendCallBody) => unwrap(api.POST('/api/v1/send-call', { body }), 'Failed to send call'),
  stop: (callId: string) => unwrap(api.POST('/api/v1/stop-call/{call_id}', { params: { path: { call_id: callId } } }), 'Failed to stop call'),
  details: async (callId: string) =>
    (await unwrap(api.GET('/api/v1/call-details/{call_id}', { params: { path: { call_id: callId } } }), 'Failed to fetch call details')).data,
  transcript: async (callId: string) =>
    (await unwrap(api.GET('/api/v1/call/{call_id}/transcript', { params: { path: { call_id: callId } } }), 'Failed to fetch transcript')).data,
  report: (callId: string, reason: string) =>
    unwrap(api.POST('/api/v1/call/{call_id}/report', { params: { path: { call_id: callId } }, body: { reason } }), 'Failed to report call'),
}

/** Where the recording is downloaded from (the browser sends the session cookie). */
export const downloadUrl = (callId: string) => `/api/v1/download-recording/${encodeURIComponent(callId)}`
export const playUrl = (callId: string) => `/api/v1/play-recording/${encodeURIComponent(callId)}`
