/** The side panel's forms for a node and an edge, with flow_graph.py's limits and rules (so a
 * draft the editor makes is one the server takes). */
import { z } from 'zod'
import type { ActionType, AnswerIntent, ConditionOp, EdgeKind, FlowAction, FlowEdge, FlowNode, GlobalIntent, NodeKind, VariableType } from './types'

export const VARIABLE_TYPES = ['text', 'yes_no', 'number', 'date', 'time', 'name'] as const satisfies readonly VariableType[]
export const ANSWER_INTENTS = ['yes', 'no', 'later', 'not_interested', 'wrong_person', 'question'] as const satisfies readonly AnswerIntent[]
export const GLOBAL_INTENTS = ['person', 'opt_out', 'robot', 'busy'] as const satisfies readonly GlobalIntent[]
export const CONDITION_OPS = ['is_set', 'is_not_set', 'equals', 'not_equals', 'contains', 'greater_than', 'less_than'] as const satisfies readonly ConditionOp[]
export const EDGE_KINDS = ['next', 'answer', 'condition', 'fallback'] as const satisfies readonly EdgeKind[]
export const ACTION_TYPES = ['transfer', 'press_digits', 'tool', 'end_call', 'voicemail'] as const satisfies readonly ActionType[]
export const THEN = ['return', 'end', 'goto'] as const

export const LINE_MAX = 1000
export const NAME_MAX = 80
export const LABEL_MAX = 80
export const PHRASE_MAX = 200
export const PHRASES_MAX = 30
export const CAPTURE_MAX = 10
export const ARGUMENTS_MAX = 30
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/
export const VARIABLE_MESSAGE = 'A variable name starts with a letter or _ and has only letters, digits and _ (64 at most)'
const KEYS = /^[0-9*#w]{1,64}$/
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/
const E164 = /^\+[1-9]\d{6,14}$/

const line = (what: string) => z.string().max(LINE_MAX, `${what} must be ${LINE_MAX} characters or less`)
const name = z
  .string()
  .refine((v) => v.trim().length > 0, 'The name is required')
  .refine((v) => v.trim().length <= NAME_MAX, `The name must be ${NAME_MAX} characters or less`)

export const nodeSchema = z
  .object({
    kind: z.enum(['say', 'ask', 'decide', 'action', 'global']),
    name,
    text: line('The line'),
    instruction: line('The instruction'),
    retry_text: line('The retry line'),
    max_tries: z.number({ error: 'Tries must be a number' }).int('Tries must be a whole number').min(1, 'At least 1 try').max(5, 'At most 5 tries'),
    capture: z.array(z.object({ variable: z.string().regex(VARIABLE_NAME, VARIABLE_MESSAGE), type: z.enum(VARIABLE_TYPES) })).max(CAPTURE_MAX, `At most ${CAPTURE_MAX} captures`),
    intent: z.enum(GLOBAL_INTENTS),
    then: z.enum(THEN),
    action_type: z.enum(ACTION_TYPES),
    number: z.string().refine((v) => v.trim() === '' || E164.test(v.trim()), 'A number in international form, like +15005550010'),
    department: z.string().max(80, 'The department must be 80 characters or less'),
    mode: z.enum(['cold', 'warm']),
    digits: z.string(),
    tool: z.string(),
    arguments: z.string(),
    result_variable: z.string().refine((v) => v.trim() === '' || VARIABLE_NAME.test(v.trim()), VARIABLE_MESSAGE),
  })
  .superRefine((form, ctx) => {
    const need = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message })
    if (form.kind === 'say' && !form.text.trim() && !form.instruction.trim()) need('text', 'A say node needs a line or an instruction')
    if (form.kind === 'ask' && !form.text.trim()) need('text', 'An ask node needs its question')
    if (form.kind !== 'action') return
    if (form.action_type === 'press_digits' && !KEYS.test(form.digits.replace(/\s/g, ''))) need('digits', 'Keys 0-9, * and #, and w for a half-second pause (64 at most)')
    if (form.action_type === 'tool' && !TOOL_NAME.test(form.tool.trim())) need('tool', 'The tool name: letters, digits, _ and - (64 at most)')
    if (form.action_type === 'tool' && argumentsOf(form.arguments) === null) need('arguments', `Arguments: a JSON object of at most ${ARGUMENTS_MAX} texts (${LINE_MAX} characters at most), numbers and true/false`)
  })

export type NodeForm = z.infer<typeof nodeSchema>

/** Tool arguments typed as a JSON object: the object, {} when empty, null when not valid. */
export function argumentsOf(text: string): Record<string, string | number | boolean> | null {
  if (!text.trim()) return {}
  try {
    const value: unknown = JSON.parse(text)
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return null
    const values = Object.values(value)
    const fits = (v: unknown) => (typeof v === 'string' ? v.length <= LINE_MAX : typeof v === 'number' ? Math.abs(v) <= 1e15 : typeof v === 'boolean')
    const ok = values.length <= ARGUMENTS_MAX && values.every(fits)
    return ok ? (value as Record<string, string | number | boolean>) : null
  } catch {
    return null
  }
}

/** Any action's fields, each maybe absent (what the form reads from). */
type LooseAction = { type?: ActionType; number?: string | null; department?: string | null; mode?: 'cold' | 'warm'; text?: string; digits?: string; tool?: string; arguments?: Record<string, string | number | boolean>; result_variable?: string | null }

export function nodeFormOf(node: FlowNode): NodeForm {
  const action: LooseAction = node.kind === 'action' ? node.action : {}
  return {
    kind: node.kind,
    name: node.name,
    text: node.kind === 'action' ? (action.text ?? '') : 'text' in node ? (node.text ?? '') : '',
    instruction: 'instruction' in node ? (node.instruction ?? '') : '',
    retry_text: node.kind === 'ask' ? (node.retry_text ?? "Sorry, I didn't catch that.") : "Sorry, I didn't catch that.",
    max_tries: node.kind === 'ask' ? (node.max_tries ?? 2) : 2,
    capture: node.kind === 'ask' ? (node.capture ?? []).map((c) => ({ variable: c.variable, type: c.type ?? 'text' })) : [],
    intent: node.kind === 'global' ? node.intent : 'person',
    then: node.kind === 'global' ? (node.then ?? 'return') : 'return',
    action_type: action.type ?? 'end_call',
    number: action.number ?? '',
    department: action.department ?? '',
    mode: action.mode ?? 'cold',
    digits: action.digits ?? '',
    tool: action.tool ?? '',
    arguments: action.arguments && Object.keys(action.arguments).length ? JSON.stringify(action.arguments) : '',
    result_variable: action.result_variable ?? '',
  }
}

function actionOf(form: NodeForm): FlowAction {
  const text = form.text.trim()
  switch (form.action_type) {
    case 'transfer':
      return { type: 'transfer', number: form.number.trim() || null, department: form.department.trim() || null, mode: form.mode, text: text || 'Let me put you through now.' }
    case 'press_digits':
      return { type: 'press_digits', digits: form.digits.replace(/\s/g, '') }
    case 'tool':
      return { type: 'tool', tool: form.tool.trim(), arguments: argumentsOf(form.arguments) ?? {}, result_variable: form.result_variable.trim() || null }
    case 'end_call':
      return { type: 'end_call', text: text || 'Thank you for your time. Goodbye.' }
    case 'voicemail':
      return { type: 'voicemail', text }
  }
}

/** The node the form describes, keeping its id and place. */
export function nodeOf(form: NodeForm, node: FlowNode): FlowNode {
  const base = { id: node.id, name: form.name.trim(), position: node.position }
  const kind: NodeKind = node.kind
  switch (kind) {
    case 'say':
      return { ...base, kind, text: form.text.trim(), instruction: form.instruction.trim() }
    case 'ask':
      return { ...base, kind, text: form.text.trim(), instruction: form.instruction.trim(), retry_text: form.retry_text.trim(), max_tries: form.max_tries, capture: form.capture }
    case 'decide':
      return { ...base, kind }
    case 'action':
      return { ...base, kind, action: actionOf(form) }
    case 'global':
      return { ...base, kind, intent: form.intent, text: form.text.trim(), then: form.then }
  }
}

export const edgeSchema = z
  .object({
    source: z.string().min(1, 'Choose the node it leaves'),
    target: z.string().min(1, 'Choose the node it goes to'),
    kind: z.enum(EDGE_KINDS),
    label: z.string().refine((v) => v.trim().length <= LABEL_MAX, `The label must be ${LABEL_MAX} characters or less`),
    phrases: z.string(),
    intent: z.union([z.enum(ANSWER_INTENTS), z.literal('')]),
    variable: z.string(),
    op: z.enum(CONDITION_OPS),
    value: z.string(),
  })
  .superRefine((form, ctx) => {
    const need = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message })
    const phrases = phrasesOf(form.phrases)
    if (phrases.length > PHRASES_MAX) need('phrases', `At most ${PHRASES_MAX} phrases`)
    if (phrases.some((p) => p.length > PHRASE_MAX)) need('phrases', `Each phrase must be ${PHRASE_MAX} characters or less`)
    if (form.kind === 'answer' && !phrases.length && !form.intent) need('phrases', 'An answer needs example phrases or an intent')
    if (form.kind === 'condition' && !VARIABLE_NAME.test(form.variable.trim())) need('variable', 'The condition needs a variable name')
  })

export type EdgeForm = z.infer<typeof edgeSchema>

/** One phrase a line, blank lines dropped. */
export const phrasesOf = (text: string) =>
  text
    .split('\n')
    .map((p) => p.trim())
    .filter(Boolean)

export function edgeFormOf(edge: Partial<FlowEdge>): EdgeForm {
  return {
    source: edge.source ?? '',
    target: edge.target ?? '',
    kind: edge.kind ?? 'next',
    label: edge.label ?? '',
    phrases: (edge.phrases ?? []).join('\n'),
    intent: edge.intent ?? '',
    variable: edge.condition?.variable ?? '',
    op: edge.condition?.op ?? 'is_set',
    value: edge.condition?.value ?? '',
  }
}

/** The edge the form describes: phrases and intent only on an answer, a condition only on a
 * condition edge. */
export function edgeOf(form: EdgeForm): Omit<FlowEdge, 'id'> {
  const answer = form.kind === 'answer'
  const valued = !['is_set', 'is_not_set'].includes(form.op)
  return {
    source: form.source,
    target: form.target,
    kind: form.kind,
    label: form.label.trim(),
    phrases: answer ? phrasesOf(form.phrases) : [],
    intent: answer && form.intent ? form.intent : null,
    condition: form.kind === 'condition' ? { variable: form.variable.trim(), op: form.op, value: valued ? form.value : null } : null,
  }
}
