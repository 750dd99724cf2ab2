/** A call's transfer to a person (docs/actions.md, "Transfer"): where it went and how, how the
 * person's leg ended, and the call's two parts (with the agent, then with the person), which
 * are billed together at the one rate. The steps themselves are the amber action lines of the
 * Events timeline. */
import type { ReactNode } from 'react'
import { formatDateTime, formatLength } from '@/lib/format'
import type { CallPageData } from './api'

type Transfer = CallPageData['transfer']

const RESULTS: Record<string, string> = {
  dialing: 'Ringing the person',
  completed: 'The person took the call',
  busy: 'The line was busy: the agent came back',
  'no-answer': 'Nobody answered: the agent came back',
  failed: 'The number could not be reached: the agent came back',
  canceled: 'Canceled: the callee hung up first',
}

const ENDED_BY: Record<NonNullable<Transfer['transfer_ended_by']>, string> = {
  callee: 'The callee, who hung up',
  person: 'The person, who hung up',
}

export function CallTransfer({ transfer }: { transfer: Transfer }) {
  const rows: [string, ReactNode][] = [
    ['Transferred to', <span className="tabular-nums">{transfer.transferred_to}</span>],
    ['At', transfer.transferred_at ? formatDateTime(transfer.transferred_at) : null],
    ['How', transfer.transfer_mode === 'warm' ? 'Warm: the person heard a summary first' : 'Cold: connected at once'],
    ['Result', transfer.transfer_status ? (RESULTS[transfer.transfer_status] ?? transfer.transfer_status) : null],
    ['With the agent', transfer.pre_transfer_duration !== null ? formatLength(transfer.pre_transfer_duration) : null],
    ['With the person', transfer.post_transfer_duration !== null ? formatLength(transfer.post_transfer_duration) : null],
    ['Ended by', transfer.transfer_ended_by ? ENDED_BY[transfer.transfer_ended_by] : null],
  ]
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm" data-testid="call-transfer">
      {rows
        .filter(([, value]) => value !== null)
        .map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-500">{label}</dt>
            <dd className="break-words text-slate-900">{value}</dd>
          </div>
        ))}
    </dl>
  )
}
