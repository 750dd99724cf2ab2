/** A finished result opened: its checks, the failed ones first (red, with an icon), each with
 * what was expected, what was found and the evidence that decided it; then the call as the
 * judge read it (the transcript, the evidence's lines highlighted) and its recording. */
import { useQuery } from '@tanstack/react-query'
import { CheckCircle2, XCircle } from 'lucide-react'
import { Skeleton } from '@/components/ui/card'
import { ApiError, messageOf } from '@/lib/api'
import { cn } from '@/lib/cn'
import { failedFirst, seconds } from './present'
import { resultCallQuery, type Check, type Evidence, type ResultCall, type ResultOut } from './api'


export function EvidenceLine({ evidence }: { evidence: Evidence }) {
  return (
    <p className="rounded-md bg-slate-50 px-2 py-1 text-xs text-slate-700 ring-1 ring-slate-200" data-testid="evidence">
      <span className="font-semibold uppercase tracking-wide text-slate-500">{evidence.kind}</span>
      {evidence.at !== null && evidence.at !== undefined && <span className="ml-2 tabular-nums text-slate-500">at {seconds(evidence.at)}</span>}
      <span className="ml-2">{evidence.text}</span>
    </p>
  )
}

export function CheckItem({ check }: { check: Check }) {
  const Icon = check.passed ? CheckCircle2 : XCircle
  return (
    <li className={cn('space-y-1 rounded-lg px-3 py-2 ring-1', check.passed ? 'ring-slate-200' : 'bg-rose-50 ring-rose-300')} data-testid="check" data-passed={check.passed}>
      <p className="flex items-center gap-2 text-sm">
        <Icon className={cn('h-4 w-4 shrink-0', check.passed ? 'text-emerald-600' : 'text-rose-600')} aria-hidden />
        <span className="font-mono font-medium text-slate-900">{check.expectation}</span>
        <span className={cn('text-xs font-semibold', check.passed ? 'text-emerald-700' : 'text-rose-700')}>{check.passed ? 'passed' : 'failed'}</span>
      </p>
      <dl className="grid grid-cols-[5rem_1fr] gap-x-2 text-xs text-slate-700">
        <dt className="text-slate-500">Expected</dt>
        <dd>{check.expected}</dd>
        <dt className="text-slate-500">Found</dt>
        <dd>{check.found}</dd>
      </dl>
      {check.evidence && <EvidenceLine evidence={check.evidence} />}
    </li>
  )
}


export function ResultDetail({ result }: { result: ResultOut }) {
  return (
    <div className="space-y-4 border-t border-slate-100 bg-white px-4 py-3" data-testid="result-detail">
      {result.error && (
        <p role="alert" className="rounded-lg bg-orange-50 px-3 py-2 text-sm text-orange-800 ring-1 ring-orange-200">
          {result.error}
        </p>
      )}
      {result.checks.length > 0 ? (
        <ul className="space-y-2" aria-label="Checks">
          {failedFirst(result.checks).map((check) => (
            <CheckItem key={check.expectation} check={check} />
          ))}
        </ul>
      ) : (
        !result.error && <p className="text-sm text-slate-500">This scenario expects nothing: no check was made.</p>
      )}
      {result.call_id && <ResultCallView resultId={result.id} checks={result.checks} />}
    </div>
  )
}

/** The transcript's lines that decided a check (line evidence, by index). */
const evidenceLines = (checks: Check[]) => new Set(checks.filter((c) => c.evidence?.kind === 'line' && c.evidence.index !== null && c.evidence.index !== undefined).map((c) => c.evidence?.index as number))
const failedLines = (checks: Check[]) => evidenceLines(checks.filter((c) => !c.passed))

export function ResultCallView({ resultId, checks }: { resultId: string; checks: Check[] }) {
  const call = useQuery(resultCallQuery(resultId))
  if (call.isPending) return <Skeleton className="h-24 w-full" />
  if (call.isError)
    return (
      <p role={call.error instanceof ApiError && call.error.status === 404 ? undefined : 'alert'} className="text-sm text-slate-500">
        {messageOf(call.error, 'Failed to load the call')}
      </p>
    )
  return <Transcript call={call.data} marked={evidenceLines(checks)} failed={failedLines(checks)} />
}

export function Transcript({ call, marked, failed }: { call: ResultCall; marked: Set<number>; failed: Set<number> }) {
  return (
    <section aria-label="The call" className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 className="text-sm font-semibold text-slate-900">The call</h4>
        <p className="text-xs text-slate-500">
          {call.outcome ?? 'no outcome'}
          {call.duration_seconds !== null ? `, ${seconds(call.duration_seconds)}` : ''}
        </p>
      </div>
      {call.recording_url && <audio controls preload="none" src={call.recording_url} className="h-9 w-full" aria-label="Recording of the call" />}
      {call.lines.length === 0 ? (
        <p className="text-sm text-slate-500">No line was said.</p>
      ) : (
        <ol className="max-h-72 space-y-1 overflow-y-auto text-sm" data-testid="result-transcript">
          {call.lines.map((line, i) => (
            <li key={i} data-evidence={marked.has(i) || undefined} className={cn('flex gap-2 rounded px-2 py-1', failed.has(i) ? 'bg-rose-100 ring-1 ring-rose-300' : marked.has(i) ? 'bg-amber-50 ring-1 ring-amber-300' : '')}>
              <span className="w-12 shrink-0 tabular-nums text-xs text-slate-500">{seconds(line.at)}</span>
              <span className={cn('w-14 shrink-0 text-xs font-semibold', line.speaker === 'agent' ? 'text-indigo-700' : 'text-slate-600')}>{line.speaker === 'agent' ? 'Agent' : 'Callee'}</span>
              <span className="text-slate-800">{line.text}</span>
              {marked.has(i) && <span className="sr-only"> (evidence)</span>}
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
