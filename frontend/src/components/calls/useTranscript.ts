/** The transcript modal of a call log (user and admin): fetch a call's details (its lines, how it
 * ended, who answered, its analysis) on demand, with the loading row, the empty notice and an
 * error toast that each log words its own way. */
import { useState } from 'react'
import { notify } from '@/lib/toast'
import { fetchCallDetails, type CallDetails } from './api'

export function useTranscript(failure: (error: unknown) => string) {
  const [transcript, setTranscript] = useState<{ id: string; lines: CallDetails['transcripts']; call: CallDetails } | null>(null)
  const [loadingId, setLoadingId] = useState<string | null>(null)

  const open = async (id: string) => {
    if (!id) return notify.error('Invalid call ID')
    setLoadingId(id)
    try {
      const call = await fetchCallDetails(id)
      if (call.transcripts.length === 0) notify.info('No transcripts available for this call')
      setTranscript({ id, lines: call.transcripts, call })
    } catch (error) {
      notify.error(failure(error))
    } finally {
      setLoadingId(null)
    }
  }

  /** The call's analysis arrived (kept with the details shown). */
  const analysed = (analysis: CallDetails['analysis']) => setTranscript((t) => (t ? { ...t, call: { ...t.call, analysis } } : t))

  return { transcript, loadingId, open, analysed, close: () => setTranscript(null) }
}
