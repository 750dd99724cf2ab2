/** Where a call came from (the backend's `CallKind`), as the call page and the admin's call logs
 * name it. */
import type { components } from '@/lib/api-schema'

export type CallKind = components['schemas']['CallPage']['kind']

const KIND_LABELS: Record<CallKind, string> = {
  dashboard: 'Send Call',
  api: 'the API',
  batch: 'an API batch',
  campaign: 'a campaign',
  test: 'the free test call',
  cli: 'the command line',
  lab: 'the agent lab',
}

/** "placed from Send Call", "placed from a campaign", ... */
export const placedFrom = (kind: CallKind) => `placed from ${KIND_LABELS[kind]}`
