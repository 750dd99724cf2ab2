/** The language picker of the agent editor and Send Call: the languages that passed the offline
 * speech benchmark (GET languages), with what a language does and does not change. */
import { Select } from '@/components/kit'
import { Field } from '@/components/ui/field'
import type { CallLanguage } from './api'

export const LANGUAGE_HINT = 'The agent hears and speaks this language. Without an LLM set up, the built-in demo brain understands and answers in English only.'

export function onlyLanguageNote(languages: CallLanguage[]): string {
  return languages.length === 1 ? ` ${languages[0].name} is the only language that passed the offline speech test so far.` : ''
}

/** The voices of `voices` that speak `language` (all of them while the languages are unknown). */
export function voicesOf<V extends { language?: string }>(voices: V[], language: string): V[] {
  return voices.filter((v) => !v.language || v.language === language)
}

interface LanguageFieldProps {
  id: string
  languages: CallLanguage[]
  value: string
  onChange: (code: string) => void
  error?: string
  disabled?: boolean
}

export function LanguageField({ id, languages, value, onChange, error, disabled }: LanguageFieldProps) {
  return (
    <Field id={id} label="Language" error={error} hint={LANGUAGE_HINT + onlyLanguageNote(languages)}>
      <Select id={id} value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled} aria-invalid={Boolean(error)}>
        {languages.map((language) => (
          <option key={language.code} value={language.code}>
            {language.name} ({language.code})
          </option>
        ))}
      </Select>
    </Field>
  )
}
