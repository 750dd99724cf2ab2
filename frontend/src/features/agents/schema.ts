/** The agent editor's form: the API's field names, the server's limits and messages. */
import { z } from 'zod'
import type { Agent, AgentBody } from '@/components/agents/api'
import { DEFAULT_LANGUAGE } from '@/components/calls/api'
import { BACKGROUND_VALUES, VOICEMAIL_VALUES } from '@/lib/callSettings'
import { transferBody, transferFields, transferForm } from './transferSchema'

export const FIELD_TYPES = ['string', 'number', 'boolean', 'date'] as const
export const LIST_MAX = 30
export const LABEL_MAX = 64
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/
export const FIELD_NAME_MESSAGE = 'A field name starts with a letter or underscore and has only letters, digits and underscores (at most 64).'

/** The AI disclosure (compliance/disclosure.py): said in every call's first turn. */
export const DEFAULT_DISCLOSURE = "I'm an AI assistant, and this call is recorded."
const DISCLOSURE_MAX = 300
const SAYS_AI = /\b(ai|a\.i\.|artificial intelligence|automated|virtual (assistant|agent)|bot|robot)\b/i
const NOT_AI = 'The disclosure must say that the caller is an AI (for example "I\'m an AI assistant").'

const tooLong = (what: string, max: number) => `${what} must be ${max} characters or less.`

/** Keys the agent can press (voice_agent.contract.KEYS_PATTERN) and the server's message. */
const DTMF_KEYS = /^[0-9*#w]{1,64}$/
export const DTMF_MESSAGE = 'The precall DTMF sequence may hold only the keys 0-9, * and #, and w for a half-second pause, 64 at most'
/** The keys as the server keeps them: spaces dropped. */
export const dtmfKeys = (value: string) => value.replace(/\s/g, '')

export function isHttpUrl(value: string): boolean {
  if (/\s/.test(value)) return false
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}

export const agentSchema = z.object({
  name: z
    .string()
    .refine((v) => v.trim().length > 0, 'The name field is required.')
    .refine((v) => v.trim().length <= 120, tooLong('The name', 120)),
  prompt: z
    .string()
    .refine((v) => v.trim().length >= 10, 'The prompt must be at least 10 characters long')
    .refine((v) => v.length <= 20_000, tooLong('The prompt', 20_000)),
  first_sentence: z.string().max(1000, tooLong('The first sentence', 1000)),
  language: z.string(),
  voice: z.string(),
  temperature: z.number().min(0).max(1),
  interruption_threshold: z.number().int().min(50).max(200),
  background_audio: z.enum(BACKGROUND_VALUES),
  max_duration: z.number().int().min(1).max(120),
  wait_for_greeting: z.boolean(),
  voicemail_action: z.enum(VOICEMAIL_VALUES),
  voicemail_message: z.string().max(1000, tooLong('The voicemail message', 1000)),
  disclosure: z
    .string()
    .max(DISCLOSURE_MAX, tooLong('The disclosure', DISCLOSURE_MAX))
    .refine((v) => v.trim() === '' || SAYS_AI.test(v), NOT_AI),
  summary_prompt: z.string().max(2000, tooLong('The summary instruction', 2000)),
  dispositions: z.array(z.string()).max(LIST_MAX, `At most ${LIST_MAX} dispositions.`),
  analysis_schema: z
    .array(
      z.object({
        name: z.string().refine((v) => FIELD_NAME.test(v.trim()), FIELD_NAME_MESSAGE),
        type: z.enum(FIELD_TYPES),
        description: z.string().max(500, tooLong('A description', 500)),
      }),
    )
    .max(LIST_MAX, `At most ${LIST_MAX} fields.`)
    .superRefine((fields, ctx) => {
      const seen = new Set<string>()
      fields.forEach((field, index) => {
        const name = field.name.trim()
        if (name && seen.has(name)) ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `The field "${name}" is listed twice.` })
        seen.add(name)
      })
    }),
  webhook_url: z
    .string()
    .max(2048, tooLong('The webhook URL', 2048))
    .refine((v) => v.trim() === '' || isHttpUrl(v.trim()), 'The webhook URL must be a valid http or https URL.'),
  ...transferFields,
  precall_dtmf_sequence: z.string().refine((v) => dtmfKeys(v) === '' || DTMF_KEYS.test(dtmfKeys(v)), DTMF_MESSAGE),
  /** The conversation flow its calls follow ('' for none: the prompt). */
  flow_id: z.string(),
})

export type AgentForm = z.infer<typeof agentSchema>

/** Every field the server may name in a 422 (shown beside its input). */
export const SERVER_FIELDS = Object.keys(agentSchema.shape) as (keyof AgentForm)[]

export function formOf(agent: Agent | null, defaultVoice: string): AgentForm {
  return {
    name: agent?.name ?? '',
    prompt: agent?.prompt ?? '',
    first_sentence: agent?.first_sentence ?? '',
    language: agent?.language ?? DEFAULT_LANGUAGE,
    voice: agent?.voice ?? defaultVoice,
    temperature: agent?.temperature ?? 0.7,
    interruption_threshold: agent?.interruption_threshold ?? 100,
    background_audio: agent?.background_audio ?? 'null',
    max_duration: agent?.max_duration ?? 30,
    wait_for_greeting: agent?.wait_for_greeting ?? false,
    voicemail_action: agent?.voicemail_action ?? 'leave_message',
    voicemail_message: agent?.voicemail_message ?? '',
    disclosure: agent?.disclosure ?? '',
    summary_prompt: agent?.summary_prompt ?? '',
    dispositions: agent?.dispositions ?? [],
    analysis_schema: (agent?.analysis_schema ?? []).map((f) => ({ name: f.name, type: f.type ?? 'string', description: f.description ?? '' })),
    webhook_url: agent?.webhook_url ?? '',
    ...transferForm(agent),
    precall_dtmf_sequence: agent?.precall_dtmf_sequence ?? '',
    flow_id: agent?.flow_id ?? '',
  }
}

const orNull = (text: string) => text.trim() || null

export function bodyOf(form: AgentForm): AgentBody {
  return {
    ...form,
    name: form.name.trim(),
    prompt: form.prompt.trim(),
    first_sentence: orNull(form.first_sentence),
    // Hanging up leaves no message (and asks for none of its variables).
    voicemail_message: form.voicemail_action === 'hangup' ? null : orNull(form.voicemail_message),
    disclosure: orNull(form.disclosure),
    summary_prompt: orNull(form.summary_prompt),
    webhook_url: orNull(form.webhook_url),
    precall_dtmf_sequence: dtmfKeys(form.precall_dtmf_sequence) || null,
    analysis_schema: form.analysis_schema.map((f) => ({ name: f.name.trim(), type: f.type, description: f.description.trim() })),
    ...transferBody(form),
    flow_id: form.flow_id || null,
  }
}
