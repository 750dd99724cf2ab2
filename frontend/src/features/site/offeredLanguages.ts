/** The languages a call can be held in: those that passed the offline round-trip benchmark
 * (benchmarks/languages.py, table in docs/voice-engine.md). Kept equal to the server's
 * `speech.languages.OFFERED` by tests/speech/test_languages.py; GET /api/v1/languages answers
 * the same list with its voices. */
export const OFFERED_LANGUAGES = ['English'] as const

/** The landing page's language claim: the names while there are few, else the count. */
export function languageClaim(names: readonly string[] = OFFERED_LANGUAGES): { short: string; value: string; label: string } {
  if (names.length <= 3) {
    const listed = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : (names[0] ?? '')
    if (names.length === 1) return { short: `Calls in ${listed}`, value: listed, label: 'language, tested end to end' }
    return { short: `Calls in ${listed}`, value: String(names.length), label: `languages: ${listed}` }
  }
  return { short: `${names.length} languages`, value: String(names.length), label: 'languages' }
}
