/** How a call ended and who answered, in words and colours: the one place the web app says it.
 * The backend's twin is `src/callwright/calls/outcomes.py` (the live closing event's sentence);
 * keep the two in step. */
import type { components } from './api-schema'

export type Outcome = components['schemas']['CallOutcome']
export type AnsweredBy = components['schemas']['AnsweredBy']
/** The badge colours: the spec's green, yellow and red for the values it names, others their own. */
export type Tone = 'green' | 'yellow' | 'red' | 'blue' | 'slate' | 'violet' | 'orange' | 'cyan' | 'teal' | 'lime' | 'fuchsia'

interface OutcomeStyle {
  label: string
  tone: Tone
  /** For charts. */
  color: string
  sentence: string
}

export const OUTCOMES: Record<Outcome, OutcomeStyle> = {
  completed: { label: 'Completed', tone: 'green', color: '#10b981', sentence: 'The call has completed' },
  'no-answer': { label: 'No answer', tone: 'yellow', color: '#f59e0b', sentence: 'No answer' },
  failed: { label: 'Failed', tone: 'red', color: '#f43f5e', sentence: 'The call failed' },
  voicemail: { label: 'Voicemail', tone: 'violet', color: '#8b5cf6', sentence: 'Voicemail reached' },
  busy: { label: 'Busy', tone: 'orange', color: '#f97316', sentence: 'The line was busy' },
  stopped: { label: 'Stopped', tone: 'cyan', color: '#06b6d4', sentence: 'You stopped the call' },
  'time-limit': { label: 'Time limit', tone: 'teal', color: '#14b8a6', sentence: 'The call reached its time limit' },
  'callee-hung-up': { label: 'Callee hung up', tone: 'lime', color: '#84cc16', sentence: 'The callee hung up' },
  'cut-by-fault': { label: 'Cut by fault', tone: 'fuchsia', color: '#d946ef', sentence: 'The call was cut off by a fault' },
}

export function isOutcome(value: unknown): value is Outcome {
  return typeof value === 'string' && Object.hasOwn(OUTCOMES, value)
}

/** What happened, for the person who placed the call; a failure says its reason. */
export function outcomeSentence(outcome: string | null | undefined, error?: string | null): string {
  if (!isOutcome(outcome)) return 'The call has ended'
  const words = OUTCOMES[outcome].sentence
  return outcome === 'failed' && error ? `${words}: ${error.replace(/\.$/, '')}` : words
}

/** The live screen's toast when a call ends: the closing event's sentence (the server's, with a
 * failure's reason), else the outcome's words; without either, the spec's "completed" text. */
export function closingToast(event: { outcome?: string | null; outcomeText?: string | null }): string {
  const words = event.outcomeText || (isOutcome(event.outcome) ? outcomeSentence(event.outcome) : 'The call has completed')
  return `${words}. You can now start a new call.`
}

const ANSWERED_BY: Record<AnsweredBy, string> = { human: 'A person', voicemail: 'Voicemail', unknown: 'Not known' }

/** Who picked up, in words ("Not answered" before an answer). */
export function answeredByLabel(value: string | null | undefined): string {
  return value && Object.hasOwn(ANSWERED_BY, value) ? ANSWERED_BY[value as AnsweredBy] : 'Not answered'
}
