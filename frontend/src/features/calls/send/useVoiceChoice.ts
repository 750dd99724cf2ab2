/** The voices Send Call offers: those that speak the call's language, the one chosen (the
 * language's first while none is picked), and a change of language that keeps the voice when
 * it speaks the new one. */
import { useQuery } from '@tanstack/react-query'
import { useEffect } from 'react'
import { useWatch, type UseFormReturn } from 'react-hook-form'
import { DEFAULT_VOICE } from '@/lib/callSettings'
import { notify } from '@/lib/toast'
import { voicesOf } from '@/components/calls/languages'
import { voicesQuery } from '@/features/calls/api'
import type { SendCallForm } from './form'

export type VoiceChoice = ReturnType<typeof useVoiceChoice>

export function useVoiceChoice({ control, setValue }: UseFormReturn<SendCallForm>) {
  const voices = useQuery(voicesQuery)
  const [voice, language] = useWatch({ control, name: ['voice', 'language'] })
  useEffect(() => {
    if (voices.isError) notify.error(voices.error.message || 'Failed to load voices')
  }, [voices.isError, voices.error])
  const speaking = voices.data ? voicesOf(voices.data, language) : undefined
  return {
    /** The voices that speak the call's language (undefined while they load). */
    speaking,
    loading: voices.isPending,
    chosen: voice ?? speaking?.[0]?.name ?? DEFAULT_VOICE,
    language,
    setVoice: (name: string) => setValue('voice', name),
    /** A new language keeps the voice when it speaks it, else its first voice is taken. */
    setLanguage: (code: string) => {
      setValue('language', code)
      if (voice && !voicesOf(voices.data ?? [], code).some((v) => v.name === voice)) setValue('voice', null)
    },
  }
}
