/** The call's analysis on its page: summary, outcome, sentiment, disposition, the key facts and
 * extracted fields each with the transcript line it comes from (a button that plays that
 * line), how it was computed, and a button to run it again. */
import { RefreshCw } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/card'
import { messageOf } from '@/lib/api'
import { cn } from '@/lib/cn'
import { notify } from '@/lib/toast'
import { analyzeCall, type CallAnalysis } from './api'

const SENTIMENT_TONE: Record<string, string> = {
  positive: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  negative: 'bg-rose-50 text-rose-700 ring-rose-200',
  neutral: 'bg-slate-100 text-slate-700 ring-slate-200',
}

export function CallAnalysisPanel({
  callId,
  analysis,
  ended,
  lineCount,
  onAnalysed,
  onLine,
}: {
  callId: string
  analysis: CallAnalysis | null | undefined
  ended: boolean
  lineCount: number
  onAnalysed: (analysis: CallAnalysis) => void
  /** Play the transcript line (1-based) a fact comes from. */
  onLine: (line: number) => void
}) {
  const [busy, setBusy] = useState(false)
  const run = async () => {
    setBusy(true)
    try {
      onAnalysed(await analyzeCall(callId, true))
      notify.success('The analysis was run again')
    } catch (error) {
      notify.error(messageOf(error, 'Failed to analyse the call'))
    } finally {
      setBusy(false)
    }
  }
  const lineLink = (line: number) =>
    line >= 1 && line <= lineCount ? (
      <button
        key={line}
        type="button"
        onClick={() => onLine(line)}
        className="rounded-md bg-indigo-50 px-1.5 py-0.5 text-xs font-medium text-indigo-700 hover:bg-indigo-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        aria-label={`Play line ${line}`}
      >
        Line {line}
      </button>
    ) : null

  return (
    <div className="space-y-4 text-sm" data-testid="call-analysis">
      {!analysis ? (
        <p className="text-slate-500">{ended ? 'This call has not been analysed yet.' : 'The call is analysed once it has ended.'}</p>
      ) : (
        <>
          <p className="leading-relaxed text-slate-800" data-testid="call-analysis-summary">
            {analysis.summary}
          </p>
          <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-2">
            <dt className="text-slate-500">Outcome</dt>
            <dd className="font-medium capitalize text-slate-900" data-testid="call-analysis-outcome">
              {analysis.outcome}
            </dd>
            <dt className="text-slate-500">Sentiment</dt>
            <dd>
              <span className={cn('rounded-full px-2 py-0.5 text-xs font-semibold capitalize ring-1 ring-inset', SENTIMENT_TONE[analysis.sentiment] ?? SENTIMENT_TONE.neutral)} data-testid="call-analysis-sentiment">
                {analysis.sentiment}
              </span>
            </dd>
            {analysis.disposition_tag && (
              <>
                <dt className="text-slate-500">Disposition</dt>
                <dd className="text-slate-900">{analysis.disposition_tag}</dd>
              </>
            )}
          </dl>
          <div>
            <h3 className="mb-1.5 text-xs font-semibold uppercase tracking-wide text-slate-500">Key facts</h3>
            {analysis.key_facts.length === 0 ? (
              <p className="text-slate-500">No facts were found in what the callee said.</p>
            ) : (
              <ul className="space-y-1.5" data-testid="call-key-facts">
                {analysis.key_facts.map((fact, i) => (
                  <li key={i} className="flex flex-wrap items-start justify-between gap-2 rounded-lg bg-slate-50 px-3 py-2">
                    <span className="min-w-0 flex-1 text-slate-800">{fact.fact}</span>
                    <span className="flex shrink-0 gap-1">{fact.lines.map(lineLink)}</span>
                  </li>
                ))}
              </ul>
            )}
          </div>
          {Object.keys(analysis.fields ?? {}).length > 0 && (
            <div>
              <h3 className="mb-1.5 text-xs font-semibold uppercase tracking-wide text-slate-500">Extracted fields</h3>
              <dl className="space-y-1.5">
                {Object.entries(analysis.fields ?? {}).map(([name, field]) => (
                  <div key={name} className="flex flex-wrap items-start justify-between gap-2 rounded-lg bg-slate-50 px-3 py-2">
                    <dt className="break-all font-medium text-slate-700">{name}</dt>
                    <dd className="flex items-center gap-2 text-slate-900" data-testid={`call-field-${name}`}>
                      {field.value === null ? <span className="text-slate-400">Not said</span> : String(field.value)}
                      {field.line !== null && field.line !== undefined && lineLink(field.line)}
                    </dd>
                  </div>
                ))}
              </dl>
            </div>
          )}
          <p className="text-xs text-slate-500">
            {analysis.method === 'llm'
              ? 'Computed by the configured language model from the numbered transcript; the lines it cites were checked.'
              : 'Computed offline: the outcome from keyword rules on the callee’s words, the sentiment from a word list, and the facts are the callee’s lines with a time, a day, a number or a yes / no.'}
          </p>
        </>
      )}
      {ended && (
        <Button variant="secondary" size="sm" disabled={busy} onClick={() => void run()}>
          {busy ? <Spinner className="h-3.5 w-3.5" /> : <RefreshCw className="h-3.5 w-3.5" aria-hidden />}
          {analysis ? 'Run analysis again' : 'Analyse call'}
        </Button>
      )}
    </div>
  )
}
