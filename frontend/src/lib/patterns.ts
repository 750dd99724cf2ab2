/** Patterns shared by forms (kept apart from the zod schemas so light pages need no zod). */

/** Letters, digits and ._%+- before the @, a domain, a dot and a suffix of 2+ letters. */
export const EMAIL_PATTERN = /^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$/
