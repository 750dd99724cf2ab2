/** What the language pickers share: the note when one language passed, the voices of a language. */
import type { CallLanguage } from './api'

export function onlyLanguageNote(languages: CallLanguage[]): string {
  return languages.length === 1 ? ` ${languages[0].name} is the only language that passed the offline speech test so far.` : ''
}

/** The voices of `voices` that speak `language` (all of them while the languages are unknown). */
export function voicesOf<V extends { language?: string }>(voices: V[], language: string): V[] {
  return voices.filter((v) => !v.language || v.language === language)
}
