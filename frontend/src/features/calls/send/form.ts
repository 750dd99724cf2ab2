/** Send Call's form: its fields, their defaults and rules, and how it turns into the request
 * (and how a saved agent or a call picked up turns into it). The rules are react-hook-form's own
 * field rules (the sliders and lists cannot hold a wrong value), not a schema library: that keeps
 * zod, about 17 KB gzip, out of Send Call's first load. */
import type { FieldErrors } from 'react-hook-form'
import type { BACKGROUND_VALUES, VOICEMAIL_VALUES } from '@/lib/callSettings'
import { placeholders } from '@/lib/variables'
import { requiredBalance } from '@/lib/format'
import { ApiError } from '@/lib/api'
import { DEFAULT_LANGUAGE, type LiveCall } from '@/components/calls/api'
import type { Agent } from '@/components/agents/api'
import type { SendCallBody } from '@/features/calls/api'

/** The phone-number rules (libphonenumber's metadata, about 29 KB gzip), loaded when a number is
 * first checked or tidied, not with the page (issue 26: Send Call's first load under 200 KB). */
export const loadPhone = () => import('@/lib/phone')

/** The call's settings. */
export interface SendCallForm {
  phone: string
  prompt: string
  voice: string | null
  /** The call's language (GET languages); the voices offered are the ones that speak it. */
  language: string
  temperature: number
  interruption: number
  background: (typeof BACKGROUND_VALUES)[number]
  maxDuration: number
  waitGreeting: boolean
  /** The saved agent the call starts from ('' for none). */
  agentId: string
  firstSentence: string
  voicemailAction: (typeof VOICEMAIL_VALUES)[number]
  voicemailMessage: string
  /** Where the agent may hand the callee to a person ('' for none; from an agent, its own). */
  transferNumber: string
  /** The conversation flow the call follows instead of the prompt ('' for none), the published
   * version shown when it was picked (null: the latest) and the node to start at ('' for its
   * start). */
  flowId: string
  flowVersion: number | null
  startNodeId: string
  /** The variables the picked flow's version is given by the call (asked for like the
   * prompt's {{variables}}). */
  flowVariables: string[]
}

export const DEFAULTS: SendCallForm = {
  phone: '',
  prompt: '',
  voice: null,
  language: DEFAULT_LANGUAGE,
  temperature: 0.7,
  interruption: 100,
  background: 'null',
  maxDuration: 30,
  waitGreeting: false,
  agentId: '',
  firstSentence: '',
  voicemailAction: 'leave_message',
  voicemailMessage: '',
  transferNumber: '',
  flowId: '',
  flowVersion: null,
  startNodeId: '',
  flowVariables: [],
}

const PROMPT_SHORT = 'The prompt must be at least 10 characters long'
const TEXT_MAX = 1000

/** The texts' rules (the number's, which reads the server's region, is `usePhoneField`'s). */
export const RULES = {
  // A call on a flow needs no prompt (the flow leads it); one written must still be 10 long.
  prompt: { validate: (value: string, form: SendCallForm) => (Boolean(form.flowId) && !value.trim()) || value.trim().length >= 10 || PROMPT_SHORT },
  firstSentence: { maxLength: { value: TEXT_MAX, message: 'The first sentence must be 1000 characters or less.' } },
  voicemailMessage: { maxLength: { value: TEXT_MAX, message: 'The voicemail message must be 1000 characters or less.' } },
  maxDuration: { valueAsNumber: true, min: 1, max: 120 },
  transferNumber: { pattern: { value: /^\s*(\+?[0-9 ().-]{7,40})?\s*$/, message: 'Enter the transfer number with its country code, e.g. "+15551234567".' } },
} as const

/** The fields in the spec's order: a refused send names the first problem (the number first,
 * then the prompt), whatever order the checks finished in. */
const FIELD_ORDER: (keyof SendCallForm)[] = ['phone', 'prompt', 'voice', 'language', 'temperature', 'interruption', 'background', 'maxDuration', 'waitGreeting', 'agentId', 'firstSentence', 'voicemailAction', 'voicemailMessage', 'transferNumber', 'flowId']

/** The message of the first field refused, in the spec's order. */
export function firstProblem(errors: FieldErrors<SendCallForm>): string | undefined {
  return FIELD_ORDER.map((name) => errors[name]).find((error) => error?.message)?.message
}

/** The server's field names (a 422's `errors`) as the form's. */
export const SERVER_FIELDS: Partial<Record<string, keyof SendCallForm>> = {
  phone: 'phone',
  prompt: 'prompt',
  voice: 'voice',
  max_duration: 'maxDuration',
  first_sentence: 'firstSentence',
  voicemail_message: 'voicemailMessage',
  transfer_number: 'transferNumber',
  flow: 'flowId',
}

/** The {{variables}} the call's texts use (a hang-up leaves no voicemail message). */
export function usedVariables(form: Pick<SendCallForm, 'prompt' | 'firstSentence' | 'voicemailAction' | 'voicemailMessage'> & { flowId?: string; flowVariables?: string[] }): string[] {
  const texts = placeholders(form.prompt, form.firstSentence, form.voicemailAction === 'leave_message' ? form.voicemailMessage : null)
  const flow = form.flowId ? (form.flowVariables ?? []) : []
  return [...flow, ...texts.filter((name) => !flow.includes(name))]
}

/** Why the server would refuse the call, said before it is sent: a {{variable}} the texts use
 * without a value, or a balance short of what the max duration holds. */
export function refusalOf(form: SendCallForm, variables: Record<string, string>, available: number): { kind: 'variables' | 'funds'; problem: string } | null {
  const missing = usedVariables(form).filter((name) => !variables[name]?.trim())
  if (missing.length) return { kind: 'variables', problem: `Fill in ${missing.map((name) => `{{${name}}}`).join(', ')} to send this call.` }
  const required = requiredBalance(form.maxDuration)
  if (available < required) return { kind: 'funds', problem: `Insufficient balance to make this call. Required: $${required.toFixed(2)}, Available: $${available.toFixed(2)}. Please add funds.` }
  return null
}

/** The longest max duration (whole minutes, at most 120) a balance can hold. */
export const coveredMinutes = (balance: number) => Math.min(120, Math.floor((balance + 1e-9) / requiredBalance(1)))

/** A calling-hours refusal (HTTP 400 with `next_open_at`): its message and the next opening. */
export function windowRefusalOf(error: unknown): { message: string; nextOpenAt: string } | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null
  const next = error.body.next_open_at
  return typeof next === 'string' && next ? { message: error.message, nextOpenAt: next } : null
}

/** The request for a form: `phone` as it is dialled, `voice` the one shown chosen. */
export function sendBodyOf(form: SendCallForm, { userId, phone, voice, variables }: { userId: number; phone: string; voice: string; variables: Record<string, string> }): SendCallBody {
  const body: SendCallBody = {
    userId,
    phone,
    prompt: form.prompt.trim(),
    max_duration: form.maxDuration,
    voice: form.voice ?? voice,
    language: form.language,
    waitGreeting: form.waitGreeting,
    temperature: form.temperature,
    interruption_threshold: form.interruption,
    background_audio: form.background,
  }
  const voicemailMessage = form.voicemailAction === 'hangup' ? '' : form.voicemailMessage.trim()
  if (form.agentId) {
    // From an agent every text is sent as shown: an emptied one means none for this call.
    Object.assign(body, { agentId: form.agentId, first_sentence: form.firstSentence.trim(), voicemail_action: form.voicemailAction, voicemail_message: voicemailMessage })
  } else {
    if (form.firstSentence.trim()) body.first_sentence = form.firstSentence.trim()
    if (form.voicemailAction === 'hangup') body.voicemail_action = 'hangup'
    if (voicemailMessage) body.voicemail_message = voicemailMessage
  }
  // From an agent an emptied number means none for this call; else only a number given is sent.
  if (form.agentId || form.transferNumber.trim()) body.transfer_number = form.transferNumber.trim()
  Object.assign(body, flowFields(form))
  const names = usedVariables(form)
  if (names.length) body.variables = Object.fromEntries(names.map((name) => [name, (variables[name] ?? '').trim()]))
  return body
}

/** The flow the call follows; with one, a prompt left empty is not sent (the flow leads the
 * call). None picked: nothing sent, except from an agent, where an empty `flow_id` switches the
 * agent's own flow off for this call (the prompt leads it, as the form shows). */
function flowFields(form: SendCallForm): Partial<SendCallBody> {
  if (!form.flowId) return form.agentId ? { flow_id: '' } : {}
  return {
    flow_id: form.flowId,
    flow_version: form.flowVersion,
    start_node_id: form.startNodeId || null,
    ...(form.prompt.trim() ? {} : { prompt: null }),
  }
}

/** The form filled with a saved agent's settings (the number kept). */
export function formOfAgent(current: SendCallForm, agent: Agent): SendCallForm {
  return {
    ...current,
    agentId: agent.id,
    prompt: agent.prompt,
    voice: agent.voice,
    language: agent.language,
    temperature: agent.temperature,
    interruption: agent.interruption_threshold,
    background: agent.background_audio,
    maxDuration: agent.max_duration,
    waitGreeting: agent.wait_for_greeting,
    firstSentence: agent.first_sentence ?? '',
    voicemailAction: agent.voicemail_action,
    voicemailMessage: agent.voicemail_message ?? '',
    transferNumber: agent.transfer_number ?? '',
    flowId: agent.flow_id ?? '',
    flowVersion: null,
    startNodeId: '',
    flowVariables: [],
  }
}

/** The form of a call picked up: its settings as it was placed. */
export function formOfLiveCall(live: LiveCall): SendCallForm {
  return {
    phone: live.to,
    prompt: live.prompt,
    voice: live.voice,
    language: live.language,
    temperature: live.temperature,
    interruption: live.interruption_threshold,
    background: live.background_audio,
    maxDuration: live.max_duration,
    waitGreeting: live.wait_for_greeting,
    agentId: '',
    firstSentence: '',
    voicemailAction: 'leave_message',
    voicemailMessage: '',
    transferNumber: '',
    flowId: '',
    flowVersion: null,
    startNodeId: '',
    flowVariables: [],
  }
}
