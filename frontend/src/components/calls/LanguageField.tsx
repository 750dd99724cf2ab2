/** The language picker of the agent editor and Send Call: the languages that passed the offline
 * speech benchmark (GET languages), with what a language does and does not change. */
import { Select } from '@/components/kit'
import { Field } from '@/components/ui/field'
import type { CallLanguage } from './api'
import { onlyLanguageNote } from './languages'

export const LANGUAGE_HINT = 'The agent hears and speaks this language. Without an LLM set up, the built-in demo brain understands and answers in English only.'

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
