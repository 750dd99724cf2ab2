/** What a call's page says above its transcript: how it ended (in words, with a failure's
 * reason), who answered, and its analysis (summary, outcome, sentiment, the disposition and the
 * fields its analysis settings asked for). Every finished call is analysed by itself
 * (calls/post_call.py); until that is stored the button analyses it on request. */
import { Fragment, useState } from 'react'
import { StatusBadge } from '@/components/StatusBadge'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/card'
import { messageOf } from '@/lib/api'
import { answeredByLabel, outcomeSentence } from '@/lib/outcomes'
import { notify } from '@/lib/toast'
import { analyzeCall, type CallAnalysis, type CallDetails } from './api'

export function CallSummary({ call, onAnalysed }: { call: CallDetails; onAnalysed: (analysis: CallAnalysis) => void }) {
  const [busy, setBusy] = useState(false)
  const ended = call.outcome !== null
  const analyse = async () => {
    setBusy(true)
    try {
      onAnalysed(await analyzeCall(call.call_id))
    } catch (error) {
      notify.error(messageOf(error, 'Failed to analyse the call'))
    } finally {
      setBusy(false)
    }
  }
  return (
    <section aria-label="Call outcome" className="mb-4 space-y-3 rounded-xl bg-slate-50 p-4 text-sm" data-testid="call-summary">
      <div className="flex flex-wrap items-center gap-2">
        <StatusBadge status={call.status} outcome={call.outcome} />
        <p className="font-medium text-slate-900" data-testid="call-outcome">
          {ended ? outcomeSentence(call.outcome, call.error) : 'The call is still in progress'}
        </p>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-slate-600">
        <dt>Answered by</dt>
        <dd data-testid="call-answered-by">{answeredByLabel(call.answered_by)}</dd>
        {call.analysis && (
          <>
            <dt>Outcome</dt>
            <dd className="capitalize">{call.analysis.outcome}</dd>
            <dt>Sentiment</dt>
            <dd className="capitalize">{call.analysis.sentiment}</dd>
            {call.analysis.disposition_tag && (
              <>
                <dt>Disposition</dt>
                <dd data-testid="call-disposition">{call.analysis.disposition_tag}</dd>
              </>
            )}
            {Object.entries(call.analysis.fields ?? {}).map(([name, field]) => (
              <Fragment key={name}>
                <dt className="break-all">{name}</dt>
                <dd data-testid={`call-field-${name}`}>{field.value === null ? <span className="text-slate-400">Not said</span> : String(field.value)}</dd>
              </Fragment>
            ))}
          </>
        )}
      </dl>
      {call.analysis ? (
        <p className="text-slate-700" data-testid="call-analysis-summary">
          {call.analysis.summary}
        </p>
      ) : (
        ended && (
          <Button variant="secondary" size="sm" disabled={busy} onClick={() => void analyse()}>
            {busy && <Spinner className="h-3.5 w-3.5" />} Analyse call
          </Button>
        )
      )}
    </section>
  )
}
