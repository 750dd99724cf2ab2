/** The admin screens' client rules and messages (spec section 5). The server enforces the same
 * limits; these give the spec's messages before anything is sent. */
import type { AdminUser, PostDraft, UserChanges } from './api'

export const PASSWORD_RULE =
  'Password must contain at least one uppercase letter, one lowercase letter, one number, and be at least 8 characters long'
/** Our policy reads the spec's message (8 characters), the stricter of its two readings. */
const PASSWORD = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d).{8,}$/
/** The spec's simple pattern: text, @, text, dot, text. */
const SIMPLE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
export const DEFAULT_BALANCE = 10
export const PROMPT_MAX = 1000
export const PROMPT_ERROR = 'Prompt message is required and must not exceed 1000 characters.'

export interface UserForm {
  name: string
  email: string
  password: string
  balance: string
  role: 'user' | 'admin'
}

export interface Problem {
  message: string
  title: string
}

export function checkNewUser(form: UserForm): Problem | null {
  if (!form.name.trim() || !form.email.trim() || !form.password || !Number(form.balance)) {
    return { message: 'Please fill in all required fields', title: 'Validation Error' }
  }
  if (!SIMPLE_EMAIL.test(form.email.trim())) return { message: 'Please enter a valid email address', title: 'Validation Error' }
  if (!PASSWORD.test(form.password)) return { message: PASSWORD_RULE, title: 'Password Error' }
  if (Number(form.balance) < 0) return { message: 'Balance cannot be negative', title: 'Validation Error' }
  return null
}

/** The Update User form's errors, and only the fields that changed. A balance of 0 is never
 * sent (the spec's rule), and an empty password means "keep the current one". */
export function userChanges(original: AdminUser, form: UserForm): { errors: Partial<Record<keyof UserForm, string>>; changes: UserChanges } {
  const errors: Partial<Record<keyof UserForm, string>> = {}
  if (!form.name.trim()) errors.name = 'Name is required'
  if (!SIMPLE_EMAIL.test(form.email.trim())) errors.email = 'Invalid email format'
  const balance = Number(form.balance)
  if (form.balance.trim() === '' || !Number.isFinite(balance)) errors.balance = 'Balance must be a number'
  else if (balance < 0) errors.balance = 'Balance cannot be negative'
  if (form.password && !PASSWORD.test(form.password)) errors.password = PASSWORD_RULE
  const changes: UserChanges = {}
  if (form.name.trim() !== original.name) changes.name = form.name.trim()
  if (form.email.trim().toLowerCase() !== original.email.toLowerCase()) changes.email = form.email.trim()
  if (form.password) changes.password = form.password
  if (Number.isFinite(balance) && balance !== 0 && Math.round(balance * 100) !== Math.round(original.balance * 100)) changes.balance = balance
  if (form.role !== original.role) changes.role = form.role
  return { errors, changes }
}

export function checkAmount(value: string): string | null {
  const amount = Number(value)
  if (!value.trim() || !Number.isFinite(amount) || amount < 0.01) return 'Amount must be greater than 0'
  return null
}

export function postErrors(draft: Pick<PostDraft, 'title' | 'description' | 'content'>): Partial<Record<'title' | 'description' | 'content', string>> {
  const errors: Partial<Record<'title' | 'description' | 'content', string>> = {}
  if (!draft.title?.trim()) errors.title = 'Title is required'
  if (!draft.description?.trim()) errors.description = 'Description is required'
  if (!hasContent(draft.content ?? '')) errors.content = 'Content is required'
  return errors
}

/** Whether editor HTML shows anything: text, or an image. */
export function hasContent(html: string): boolean {
  if (/<img\s/i.test(html)) return true
  return html.replace(/<[^>]*>/g, '').replace(/&nbsp;/g, ' ').trim().length > 0
}

export function checkPrompt(text: string): string | null {
  return !text.trim() || text.length > PROMPT_MAX ? PROMPT_ERROR : null
}

/** The first 8 characters of a call id (the full id shows on hover). */
export function shortId(id: string): string {
  return id.slice(0, 8)
}

/** Duration for the call log: capped at an hour, m:ss. */
export function formatLength(seconds: number | null | undefined): string {
  const s = Math.min(3600, Math.max(0, Math.floor(seconds ?? 0)))
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
}

/** Next sort after clicking a column: a new column starts descending; the same one flips. */
export function nextSort(current: string, column: string): string {
  const active = current.replace(/^-/, '')
  if (active !== column) return `-${column}`
  return current.startsWith('-') ? column : `-${column}`
}
