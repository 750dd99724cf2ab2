/** The transcript modal of a call log (user and admin): fetch a call's lines on demand, with the
 * loading row, the empty notice and an error toast that each log words its own way. */
import { useState } from 'react'
import { notify } from '@/lib/toast'
import { fetchTranscript, type TranscriptLine } from './api'

export function useTranscript(failure: (error: unknown) => string) {
  const [transcript, setTranscript] = useState<{ id: string; lines: TranscriptLine[] } | null>(null)
  const [loadingId, setLoadingId] = useState<string | null>(null)

  const open = async (id: string) => {
    if (!id) return notify.error('Invalid call ID')
    setLoadingId(id)
    try {
      const lines = await fetchTranscript(id)
      if (lines.length === 0) notify.info('No transcripts available for this call')
      setTranscript({ id, lines })
    } catch (error) {
      notify.error(failure(error))
    } finally {
      setLoadingId(null)
    }
  }

  return { transcript, loadingId, open, close: () => setTranscript(null) }
}
