/** What the Tests tab shows of its data, worded: checks a scenario gives, suite groups, seconds,
 * a run's progress and version, a setting's value. */
import { formatDateTime } from '@/lib/format'
import type { Check, RunOut, RunSummary, ScenarioOut } from './api'
import { DEFAULT_SUITE } from './draft'

export const DONE = new Set(['passed', 'failed', 'error'])

/** How many checks a scenario's expectations give. */
export function expectationCount({ expect = {} }: Pick<ScenarioOut, 'expect'>): number {
  const ones = [expect.outcome, expect.transferred, expect.path?.length ? expect.path : null, expect.max_call_seconds, expect.max_reply_seconds].filter((v) => v !== null && v !== undefined).length
  return ones + (expect.keys ? 1 : 0) + (expect.callee_says?.length ?? 0) + Object.keys(expect.values ?? {}).length + (expect.says?.length ?? 0) + (expect.never_says?.length ?? 0) + (expect.tools?.length ?? 0)
}

export const suiteOf = (scenario: ScenarioOut) => scenario.suite ?? DEFAULT_SUITE

/** The scenarios by suite, the groups in the order their first scenario was added. */
export function groups(scenarios: ScenarioOut[]): [string, ScenarioOut[]][] {
  const out = new Map<string, ScenarioOut[]>()
  for (const s of scenarios) out.set(suiteOf(s), [...(out.get(suiteOf(s)) ?? []), s])
  return [...out.entries()]
}

export const seconds = (at: number | null | undefined) => (at === null || at === undefined ? '' : `${at.toFixed(1)} s`)

/** Failed checks first, each group in the judge's order. */
export const failedFirst = (checks: Check[]) => [...checks.filter((c) => !c.passed), ...checks.filter((c) => c.passed)]

export function doneCount(run: Pick<RunOut, 'results'>): number {
  return run.results.filter((r) => DONE.has(r.status)).length
}

/** "v3" for the agent's version a run ran (none: a run from before versions were kept). */
export const agentVersionOf = (run: RunSummary) => {
  return run.agent_version === null ? '' : `v${run.agent_version}`
}

export const runLabel = (run: RunSummary) => `${formatDateTime(run.created_at)} (${run.passed_count} passed, ${run.failed_count} failed)`

/** A setting's value as words: texts as they are, the rest as JSON, none as "(none)". */
export const shown = (value: unknown) => (value === null || value === undefined || value === '' ? '(none)' : typeof value === 'string' ? value : JSON.stringify(value))
