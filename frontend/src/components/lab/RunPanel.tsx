/** A run as it goes and once it is over: its status, a progress bar ("3 of 8 done") and each
 * scenario's status; a result opens to its checks and its call (ResultDetail). Read again every
 * second while the run is running. */
import { useQuery } from '@tanstack/react-query'
import { ChevronDown, ChevronRight, GitCompare, X } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Card, Skeleton } from '@/components/ui/card'
import { messageOf } from '@/lib/api'
import { cn } from '@/lib/cn'
import { formatDateTime } from '@/lib/format'
import { runQuery, type ResultOut, type RunOut } from './api'
import { LabStatus } from './LabStatus'
import { DONE, doneCount } from './present'
import { ResultDetail } from './ResultDetail'


export function Progress({ run }: { run: RunOut }) {
  const total = run.results.length
  const done = doneCount(run)
  const percent = total ? Math.round((done / total) * 100) : 100
  return (
    <div className="space-y-1">
      <div className="flex justify-between text-xs text-slate-600">
        <span data-testid="run-progress-text">
          {done} of {total} done
        </span>
        <span>
          {run.passed_count} passed, {run.failed_count} failed
        </span>
      </div>
      <div role="progressbar" aria-label="Run progress" aria-valuemin={0} aria-valuemax={total} aria-valuenow={done} aria-valuetext={`${done} of ${total} done`} className="h-2 overflow-hidden rounded-full bg-slate-100">
        <div className={cn('h-full rounded-full transition-all', run.status === 'running' ? 'bg-indigo-500' : run.failed_count ? 'bg-rose-500' : 'bg-emerald-500')} style={{ width: `${percent}%` }} />
      </div>
    </div>
  )
}

export function RunPanel({ runId, reveal, onClose, onCompare, onFinished }: { runId: string; reveal: boolean; onClose: () => void; onCompare: (run: RunOut) => void; onFinished: () => void }) {
  const run = useQuery(runQuery(runId))
  // A run just started or opened is brought into view (the suite above it may be long).
  const region = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (reveal) region.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' })
  }, [reveal])
  // Once a run seen running is over, the runs list shows its counts.
  const status = run.data?.status
  const seen = useRef(status)
  useEffect(() => {
    if (seen.current === 'running' && status && status !== 'running') onFinished()
    seen.current = status
  }, [status, onFinished])
  return (
    <Card ref={region} className="scroll-mt-4 overflow-hidden" role="region" aria-labelledby="lab-run">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-5 py-4">
        <div className="flex items-center gap-3">
          <h2 id="lab-run" className="text-lg font-semibold text-slate-900">
            Run
          </h2>
          {run.data && <LabStatus status={run.data.status} testId="run-status" />}
        </div>
        <div className="flex gap-1">
          {run.data && run.data.status !== 'running' && (
            <Button variant="ghost" size="sm" onClick={() => onCompare(run.data)}>
              <GitCompare className="h-4 w-4" aria-hidden /> Compare with previous
            </Button>
          )}
          <Button variant="ghost" size="icon" aria-label="Close the run" onClick={onClose}>
            <X className="h-4 w-4" aria-hidden />
          </Button>
        </div>
      </div>
      <div className="space-y-4 p-5" aria-live="polite">
        {run.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : run.isError ? (
          <p role="alert" className="text-sm text-rose-600">
            {messageOf(run.error, 'Failed to load the run')}
          </p>
        ) : (
          <>
            <p className="text-xs text-slate-500">
              Started {formatDateTime(run.data.created_at)} from {run.data.source}
              {run.data.finished_at ? `, finished ${formatDateTime(run.data.finished_at)}` : ''}
            </p>
            <Progress run={run.data} />
            <ol className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200" aria-label="Results">
              {run.data.results.map((result) => (
                <ResultRow key={result.id} result={result} />
              ))}
            </ol>
          </>
        )}
      </div>
    </Card>
  )
}

function ResultRow({ result }: { result: ResultOut }) {
  const [open, setOpen] = useState(false)
  const failed = result.checks.filter((c) => !c.passed).length
  const finished = DONE.has(result.status)
  return (
    <li data-testid="result-row">
      <button type="button" aria-expanded={open} disabled={!finished} onClick={() => setOpen(!open)} className="flex w-full items-center gap-3 px-4 py-2.5 text-left hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-indigo-500 disabled:cursor-default disabled:hover:bg-transparent">
        {finished ? open ? <ChevronDown className="h-4 w-4 text-slate-500" aria-hidden /> : <ChevronRight className="h-4 w-4 text-slate-500" aria-hidden /> : <span className="w-4" aria-hidden />}
        <span className="min-w-0 flex-1 truncate text-sm font-medium text-slate-800">{result.scenario.name}</span>
        {finished && result.checks.length > 0 && (
          <span className={cn('text-xs', failed ? 'font-semibold text-rose-700' : 'text-slate-500')}>
            {failed ? `${failed} of ${result.checks.length} ${result.checks.length === 1 ? 'check' : 'checks'} failed` : `${result.checks.length} ${result.checks.length === 1 ? 'check' : 'checks'} passed`}
          </span>
        )}
        <LabStatus status={result.status} />
      </button>
      {open && <ResultDetail result={result} />}
    </li>
  )
}
