/** `{{variable}}` placeholders in an agent's texts (the server's rule, agents/variables.py):
 * a letter or underscore, then letters, digits, underscores, dots or dashes (64 at most). */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_.-]{0,63})\s*\}\}/g

/** The distinct names used in `texts`, in first-use order. */
export function placeholders(...texts: (string | null | undefined)[]): string[] {
  const seen = new Set<string>()
  for (const text of texts) {
    for (const match of (text ?? '').matchAll(PLACEHOLDER)) seen.add(match[1] as string)
  }
  return [...seen]
}
