/** How the agent sounds: the call's language, its voice, temperature, interruption tolerance and
 * background audio. */
import { useQuery } from '@tanstack/react-query'
import { useWatch, type UseFormReturn } from 'react-hook-form'
import { Slider } from '@/components/ui/slider'
import { BACKGROUNDS } from '@/lib/callSettings'
import { languagesQuery } from '@/components/calls/api'
import { LanguageField } from '@/components/calls/LanguageField'
import type { SendCallForm } from './form'
import type { VoiceChoice } from './useVoiceChoice'
import { VoicePicker } from './VoicePicker'

export function VoiceSettings({ form: { register, control }, voices, disabled }: { form: UseFormReturn<SendCallForm>; voices: VoiceChoice; disabled: boolean }) {
  const languages = useQuery(languagesQuery)
  const [temperature, interruption] = useWatch({ control, name: ['temperature', 'interruption'] })
  return (
    <>
      {languages.data && <LanguageField id="call-language" languages={languages.data} value={voices.language} onChange={voices.setLanguage} disabled={disabled} />}
      <VoicePicker voices={voices.speaking} loading={voices.loading} value={voices.chosen} onChange={voices.setVoice} disabled={disabled} />
      <Slider id="temperature" label="Temperature" min={0} max={1} step={0.1} field={register('temperature', { valueAsNumber: true })} disabled={disabled} display={temperature.toFixed(1)} />
      <Slider
        id="interruption"
        label="Interruption tolerance"
        min={50}
        max={200}
        step={10}
        field={register('interruption', { valueAsNumber: true })}
        disabled={disabled}
        display={`${interruption} ms`}
      />
      <div>
        <label htmlFor="background" className="text-sm font-medium text-slate-700">
          Background audio
        </label>
        <select
          id="background"
          {...register('background')}
          disabled={disabled}
          className="mt-1 h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm disabled:bg-slate-50"
        >
          {BACKGROUNDS.map((b) => (
            <option key={b.value} value={b.value}>
              {b.label}
            </option>
          ))}
        </select>
      </div>
    </>
  )
}
