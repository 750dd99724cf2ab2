/** The campaign screens' words and small helpers: state, status and outcome labels, the
 * counters with every number present, dollars. */
import type { Outcome } from '@/lib/outcomes'
import type { Campaign, CampaignState, ContactStatus } from './api'

/** A contact's outcome: its call's (`CallOutcome`), or why it was never called or not again. */
type ContactOutcome = Outcome | 'do-not-call' | 'cancelled' | 'end-passed' | 'invalid'

export const STATE_LABEL: Record<CampaignState, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  running: 'Running',
  paused: 'Paused',
  completed: 'Completed',
  cancelled: 'Cancelled',
}

export const STATUS_LABEL: Record<ContactStatus, string> = {
  pending: 'To call',
  calling: 'In a call',
  done: 'Done',
  'opted-out': 'Opted out',
  skipped: 'Skipped',
}

export const OUTCOME_LABEL: Record<string, string> = {
  completed: 'Completed',
  voicemail: 'Voicemail',
  busy: 'Busy',
  'no-answer': 'No answer',
  failed: 'Failed',
  stopped: 'Stopped',
  'time-limit': 'Time limit',
  'callee-hung-up': 'Hung up',
  'cut-by-fault': 'Cut by a fault',
  transferred: 'Transferred',
  'do-not-call': 'On a do-not-call list',
  cancelled: 'Cancelled',
  'end-passed': 'End time passed',
  invalid: 'Could not be placed',
} satisfies Record<ContactOutcome, string>

/** The counters with every number present (the API leaves zeros out of its schema's required). */
export function counts(campaign: Campaign) {
  const c = campaign.counters
  return { total: c.total ?? 0, pending: c.pending ?? 0, calling: c.calling ?? 0, done: c.done ?? 0, opted_out: c.opted_out ?? 0, skipped: c.skipped ?? 0, outcomes: c.outcomes ?? {} }
}

export const dollars = (value: number) => `$${value.toFixed(2)}`
