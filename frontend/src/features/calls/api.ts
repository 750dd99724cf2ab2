/** The user's calls: queries and mutations with the spec's fallback messages. */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api'
import type { components } from '@/lib/api-schema'
import { fetchCallDetails, fetchTranscript } from '@/components/calls/api'

export { callKeys, callsQuery, downloadUrl, playUrl, statsQuery, voicesQuery, type CallRecord, type TranscriptLine } from '@/components/calls/api'

export type { CallDetails } from '@/components/calls/api'
export type Voice = components['schemas']['VoiceOut']
export type SendCallBody = components['schemas']['SendCallIn']
export type WeekdayStats = components['schemas']['WeekdayStats']

export const CALL_LOGS_PAGE_SIZE = 7


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
  details: fetchCallDetails,
  transcript: fetchTranscript,
  report: (callId: string, reason: string) =>
    unwrap(api.POST('/api/v1/call/{call_id}/report', { params: { path: { call_id: callId } }, body: { reason } }), 'Failed to report call'),
}
