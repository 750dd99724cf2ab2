/** The tool form's state, its checks (the server's rules, so the messages come before a round
 * trip) and the body it sends. A header kept on the server has no value here: left empty, the
 * server keeps it. */
import { TOOL_TIMEOUT_MAX, WAITING_LINE, type AgentTool, type AgentToolBody, type ToolMethod } from '@/components/agents/tools'

export interface HeaderDraft {
  name: string
  value: string
  /** The server keeps a value for it (shown masked; empty keeps it). */
  kept: boolean
}

export interface ToolDraft {
  name: string
  description: string
  parameters: string
  method: ToolMethod
  url: string
  headers: HeaderDraft[]
  body: string
  timeout: string
  waitingLine: string
}

export type DraftErrors = Partial<Record<keyof ToolDraft, string>>

const EMPTY_PARAMETERS = { type: 'object', properties: {} }
const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/
const RESERVED = ['end_call', 'transfer', 'press_digits']

export function draftOf(tool: AgentTool | null): ToolDraft {
  return {
    name: tool?.name ?? '',
    description: tool?.description ?? '',
    parameters: JSON.stringify(tool?.parameters ?? EMPTY_PARAMETERS, null, 2),
    method: tool?.method ?? 'POST',
    url: tool?.url ?? '',
    headers: (tool?.headers ?? []).map((h) => ({ name: h.name, value: '', kept: true })),
    body: tool?.body == null ? '' : JSON.stringify(tool.body, null, 2),
    timeout: String(tool?.timeout_seconds ?? 5),
    waitingLine: tool?.waiting_line ?? WAITING_LINE,
  }
}

function json(text: string): { value?: unknown; error?: string } {
  try {
    return { value: JSON.parse(text) }
  } catch {
    return { error: 'This is not valid JSON.' }
  }
}

export function checkDraft(draft: ToolDraft): DraftErrors {
  const errors: DraftErrors = {}
  const name = draft.name.trim()
  if (!TOOL_NAME.test(name)) errors.name = 'A letter or underscore, then letters, digits, underscores and dashes (at most 64).'
  else if (RESERVED.includes(name)) errors.name = `"${name}" is a built-in tool's name.`
  if (!draft.description.trim()) errors.description = 'Say when the agent should use it.'
  if (!/^https?:\/\/\S+$/.test(draft.url.trim())) errors.url = 'An http:// or https:// URL.'
  const parameters = json(draft.parameters)
  const schema = parameters.value as { type?: unknown } | undefined
  if (parameters.error) errors.parameters = parameters.error
  else if (!schema || typeof schema !== 'object' || schema.type !== 'object') errors.parameters = 'A JSON Schema of "type": "object".'
  if (draft.body.trim() && json(draft.body).error) errors.body = json(draft.body).error
  const timeout = Number(draft.timeout)
  if (!(timeout > 0 && timeout <= TOOL_TIMEOUT_MAX)) errors.timeout = `More than 0 and at most ${TOOL_TIMEOUT_MAX} seconds.`
  const names = draft.headers.map((h) => h.name.trim().toLowerCase())
  if (draft.headers.some((h) => !h.name.trim())) errors.headers = 'Each header needs a name.'
  else if (new Set(names).size !== names.length) errors.headers = 'A header is listed twice.'
  else if (draft.headers.some((h) => !h.kept && !h.value)) errors.headers = 'A new header needs a value.'
  return errors
}

export function bodyOfDraft(draft: ToolDraft): AgentToolBody {
  return {
    name: draft.name.trim(),
    description: draft.description.trim(),
    parameters: JSON.parse(draft.parameters) as AgentToolBody['parameters'],
    method: draft.method,
    url: draft.url.trim(),
    headers: draft.headers.map((h) => (h.kept && !h.value ? { name: h.name.trim() } : { name: h.name.trim(), value: h.value })),
    body: draft.body.trim() ? (JSON.parse(draft.body) as AgentToolBody['body']) : null,
    timeout_seconds: Number(draft.timeout),
    waiting_line: draft.waitingLine,
  }
}

/** The server's 422 messages by the form's fields. */
export function serverErrors(errors: Record<string, string[]>): DraftErrors {
  const fields: Record<string, keyof ToolDraft> = { timeout_seconds: 'timeout', waiting_line: 'waitingLine' }
  const out: DraftErrors = {}
  for (const [key, messages] of Object.entries(errors)) {
    const top = key.split('.')[0]
    const field = fields[top] ?? (top as keyof ToolDraft)
    if (messages[0] && !out[field]) out[field] = messages[0]
  }
  return out
}
