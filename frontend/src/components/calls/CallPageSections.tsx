/** The side panels of a call's page: its cost through the billing rule (with the ledger rows),
 * the settings it was placed with, and its events as a timeline. */
import { useState, type ReactNode } from 'react'
import { BILLING_RULE } from '@/lib/billing'
import { ActionFacts } from './ActionLine'
import { backgroundLabel } from '@/lib/callSettings'
import { cn } from '@/lib/cn'
import { formatClock, formatCurrency, formatDateTime } from '@/lib/format'
import type { CallBilling, CallEvent, CallSettings } from './api'

const LEDGER_WORDS: Record<string, string> = {
  hold: 'Held at send',
  charge: 'Charged',
  release: 'Released',
  refund: 'Refunded',
  adjustment: 'Adjusted',
}

export function CallCost({ billing }: { billing: CallBilling }) {
  return (
    <div className="space-y-3 text-sm" data-testid="call-cost">
      <div className="flex items-baseline justify-between gap-3">
        <span className="text-slate-500">Cost</span>
        <span className="text-2xl font-semibold tabular-nums text-slate-900" data-testid="call-cost-amount">
          {billing.cost === null ? '—' : formatCurrency(billing.cost)}
        </span>
      </div>
      <p className="text-slate-800" data-testid="call-cost-explanation">
        {billing.explanation}
      </p>
      <p className="text-xs text-slate-500" data-testid="call-cost-rule">
        Calls cost {BILLING_RULE}; a call never answered costs nothing.
      </p>
      {billing.ledger.length > 0 && (
        <table className="w-full text-xs">
          <caption className="sr-only">Balance movements of this call</caption>
          <thead className="text-slate-500">
            <tr>
              <th scope="col" className="py-1 text-left font-semibold">
                Entry
              </th>
              <th scope="col" className="py-1 text-right font-semibold">
                Amount
              </th>
              <th scope="col" className="py-1 text-right font-semibold">
                Balance after
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 text-slate-700">
            {billing.ledger.map((entry, i) => (
              <tr key={i}>
                <td className="py-1">{LEDGER_WORDS[entry.kind] ?? entry.kind}</td>
                <td className={cn('py-1 text-right tabular-nums', entry.amount < 0 ? 'text-rose-600' : 'text-emerald-700')}>
                  {entry.amount < 0 ? '−' : '+'}
                  {formatCurrency(Math.abs(entry.amount))}
                </td>
                <td className="py-1 text-right tabular-nums">{formatCurrency(entry.balance_after)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  )
}

const SOURCES: Record<CallSettings['source'], string> = {
  dashboard: 'Send Call (dashboard)',
  api: 'The API',
  campaign: 'A campaign',
  test: 'The public test call',
  lab: 'The agent lab (a simulated callee)',
}

export function CallSettingsList({ settings }: { settings: CallSettings }) {
  const rows: [string, ReactNode][] = [
    ['Placed from', SOURCES[settings.source]],
    ['Agent', settings.agent_id ? (settings.agent_name ?? 'A deleted agent') : null],
    ['Campaign', settings.campaign_id ? (settings.campaign_name ?? 'A deleted campaign') : null],
    ['Voice', settings.voice],
    ['Max duration', `${settings.max_duration} min`],
    ['Temperature', settings.temperature],
    ['Interruption tolerance', `${settings.interruption_threshold} ms`],
    ['Background audio', <span data-testid="call-background">{backgroundLabel(settings.background_audio)}</span>],
    ['Wait for greeting', settings.wait_for_greeting ? 'Yes' : 'No'],
    ['First sentence', settings.first_sentence || null],
    ['On voicemail', settings.voicemail_action === 'hangup' ? 'Hang up' : `Leave a message${settings.voicemail_message ? `: “${settings.voicemail_message}”` : ''}`],
    ['Disclosure', settings.disclosure || null],
    ['Scheduled for', settings.start_at ? formatDateTime(settings.start_at) : null],
    ['Variables', settings.variables && Object.keys(settings.variables).length > 0 ? Object.entries(settings.variables).map(([k, v]) => `${k} = ${String(v)}`).join(', ') : null],
    ['Summary prompt', settings.summary_prompt || null],
    ['Dispositions', settings.dispositions?.length ? settings.dispositions.join(', ') : null],
    ['Fields to extract', settings.analysis_schema?.length ? settings.analysis_schema.map((f) => String(f.name)).join(', ') : null],
  ]
  return (
    <div className="space-y-3 text-sm" data-testid="call-settings">
      <div>
        <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Prompt</h3>
        <p className="max-h-40 overflow-y-auto whitespace-pre-wrap rounded-lg bg-slate-50 px-3 py-2 text-slate-800">{settings.prompt}</p>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5">
        {rows
          .filter(([, value]) => value !== null && value !== undefined)
          .map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-slate-500">{label}</dt>
              <dd className="break-words text-slate-900">{value}</dd>
            </div>
          ))}
      </dl>
    </div>
  )
}

/** An event that is a transcript line ("Assistant: …", "User: …"): hidden unless asked for,
 * the transcript shows those. */
function isLine(event: CallEvent): boolean {
  return event.category === 'call' && /^(Assistant|User|Person): /.test(event.message)
}

const DOT: Record<string, string> = { status: 'bg-sky-500', call: 'bg-indigo-500', error: 'bg-rose-500', action: 'bg-amber-500' }

export function CallTimeline({ events }: { events: CallEvent[] }) {
  const [withLines, setWithLines] = useState(false)
  const lines = events.filter(isLine).length
  const shown = withLines ? events : events.filter((e) => !isLine(e))
  return (
    <div className="space-y-3 text-sm" data-testid="call-timeline">
      {lines > 0 && (
        <label className="flex items-center gap-2 text-xs text-slate-600">
          <input type="checkbox" checked={withLines} onChange={(e) => setWithLines(e.target.checked)} className="h-4 w-4 rounded border-slate-300" />
          Show the {lines} transcript line events
        </label>
      )}
      {shown.length === 0 ? (
        <p className="text-slate-500">No events were recorded for this call.</p>
      ) : (
        <ol className="relative space-y-3 border-l border-slate-200 pl-5">
          {shown.map((event, i) => (
            <li key={i} className="relative">
              <span className={cn('absolute -left-[1.6rem] top-1.5 h-2.5 w-2.5 rounded-full ring-4 ring-white', DOT[event.category] ?? 'bg-slate-400')} aria-hidden />
              <p className="break-words text-slate-800">{event.message}</p>
              {event.action && <ActionFacts action={event.action} named className="text-xs text-slate-700" />}
              <p className="text-xs text-slate-500">
                <time dateTime={event.created_at}>{formatClock(event.created_at)}</time> · {event.category}
              </p>
            </li>
          ))}
        </ol>
      )}
    </div>
  )
}
