/** Two runs compared: the settings that changed between them (name: before -> after; a long
 * text as a before and an after block) and each expectation whose result changed, its check in
 * each run with the evidence that decided it. */
import { useQuery } from '@tanstack/react-query'
import { ArrowRight, ChevronDown, ChevronRight, X } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { Card, Skeleton } from '@/components/ui/card'
import { messageOf } from '@/lib/api'
import { formatDateTime } from '@/lib/format'
import { compareQuery, type Check, type CheckChange, type RunComparison } from './api'
import { shown } from './present'
import { CheckItem, ResultCallView } from './ResultDetail'

const isLong = (before: string, after: string) => before.length + after.length > 80 || before.includes('\n') || after.includes('\n')

function SettingChange({ name, before, after }: { name: string; before: unknown; after: unknown }) {
  const [from, to] = [shown(before), shown(after)]
  if (!isLong(from, to))
    return (
      <li className="flex flex-wrap items-center gap-2 text-sm" data-testid="setting-change">
        <span className="font-mono font-medium text-slate-900">{name}</span>
        <del className="rounded bg-rose-50 px-1.5 text-rose-800">{from}</del>
        <ArrowRight className="h-3.5 w-3.5 text-slate-400" aria-label="changed to" />
        <ins className="rounded bg-emerald-50 px-1.5 text-emerald-800 no-underline">{to}</ins>
      </li>
    )
  return (
    <li className="space-y-1 text-sm" data-testid="setting-change">
      <span className="font-mono font-medium text-slate-900">{name}</span>
      <div className="grid gap-2 md:grid-cols-2">
        <pre className="whitespace-pre-wrap rounded-lg bg-rose-50 p-2 text-xs text-rose-900 ring-1 ring-rose-200">
          <span className="block font-sans font-semibold">Before</span>
          {from}
        </pre>
        <pre className="whitespace-pre-wrap rounded-lg bg-emerald-50 p-2 text-xs text-emerald-900 ring-1 ring-emerald-200">
          <span className="block font-sans font-semibold">After</span>
          {to}
        </pre>
      </div>
    </li>
  )
}

function Side({ label, check }: { label: string; check: Check | null }) {
  return (
    <div className="min-w-0 space-y-1">
      <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</p>
      {check ? (
        <ul>
          <CheckItem check={check} />
        </ul>
      ) : (
        <p className="text-sm text-slate-500">Not checked in this run.</p>
      )}
    </div>
  )
}

function ChangedCheck({ change }: { change: CheckChange }) {
  const [calls, setCalls] = useState(false)
  const Chevron = calls ? ChevronDown : ChevronRight
  return (
    <li className="space-y-2 rounded-xl p-3 ring-1 ring-slate-200" data-testid="check-change">
      <p className="text-sm font-medium text-slate-900">
        {change.scenario} <span className="font-mono text-slate-600">· {change.expectation}</span>
      </p>
      <div className="grid gap-3 md:grid-cols-2">
        <Side label="Before" check={change.before} />
        <Side label="After" check={change.after} />
      </div>
      <Button variant="ghost" size="sm" aria-expanded={calls} onClick={() => setCalls(!calls)}>
        <Chevron className="h-4 w-4" aria-hidden /> {calls ? 'Hide both calls' : 'Show both calls'}
      </Button>
      {calls && (
        <div className="grid gap-3 md:grid-cols-2">
          {[change.before_result_id, change.after_result_id].map((id, i) => (
            <div key={i} className="min-w-0" data-testid={i ? 'after-call' : 'before-call'}>
              {id ? <ResultCallView resultId={id} checks={[i ? change.after : change.before].filter((c) => c !== null)} /> : <p className="text-sm text-slate-500">No call in this run.</p>}
            </div>
          ))}
        </div>
      )}
    </li>
  )
}

export function Comparison({ data }: { data: RunComparison }) {
  const settings = Object.entries(data.settings_changed)
  return (
    <div className="space-y-5">
      <p className="text-sm text-slate-600">
        {formatDateTime(data.before.created_at)} ({data.before.passed_count} passed, {data.before.failed_count} failed) → {formatDateTime(data.after.created_at)} ({data.after.passed_count} passed, {data.after.failed_count} failed)
      </p>
      <section aria-labelledby="compare-settings" className="space-y-2">
        <h3 id="compare-settings" className="font-semibold text-slate-900">
          Settings that changed
        </h3>
        {settings.length ? (
          <ul className="space-y-2">
            {settings.map(([name, [before, after]]) => (
              <SettingChange key={name} name={name} before={before} after={after} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-500">The same settings in both runs.</p>
        )}
      </section>
      <section aria-labelledby="compare-checks" className="space-y-2">
        <h3 id="compare-checks" className="font-semibold text-slate-900">
          Expectations whose result changed
        </h3>
        {data.changed.length ? (
          <ul className="space-y-3">
            {data.changed.map((change) => (
              <ChangedCheck key={`${change.scenario}|${change.expectation}`} change={change} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-500">Every expectation has the same result in both runs.</p>
        )}
        {data.only_before.length > 0 && <p className="text-xs text-slate-500">Only in the earlier run: {data.only_before.join(', ')}</p>}
        {data.only_after.length > 0 && <p className="text-xs text-slate-500">Only in the later run: {data.only_after.join(', ')}</p>}
      </section>
    </div>
  )
}

export function CompareView({ before, after, onClose }: { before: string; after: string; onClose: () => void }) {
  const compare = useQuery(compareQuery(before, after))
  return (
    <Card className="overflow-hidden" role="region" aria-labelledby="lab-compare">
      <div className="flex items-center justify-between border-b border-slate-200 px-5 py-4">
        <h2 id="lab-compare" className="text-lg font-semibold text-slate-900">
          Compare runs
        </h2>
        <Button variant="ghost" size="icon" aria-label="Close the comparison" onClick={onClose}>
          <X className="h-4 w-4" aria-hidden />
        </Button>
      </div>
      <div className="p-5">
        {compare.isPending ? (
          <Skeleton className="h-32 w-full" />
        ) : compare.isError ? (
          <p role="alert" className="text-sm text-rose-600">
            {messageOf(compare.error, 'Failed to compare the runs')}
          </p>
        ) : (
          <Comparison data={compare.data} />
        )}
      </div>
    </Card>
  )
}
