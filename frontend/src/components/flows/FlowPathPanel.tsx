/** The path a call took through its conversation flow (docs/flows.md): each node visited in
 * order with the edge taken and why, what the callee said there, the variables captured, and
 * the flow's graph with the path drawn on it. */
import { lazy, Suspense } from 'react'
import { Skeleton } from '@/components/ui/card'
import { capturedAlong, type FlowGraph, type FlowStep } from './api'

const FlowPathGraph = lazy(() => import('./FlowPathGraph'))

export function FlowPathPanel({ steps, graph, version, live }: { steps: FlowStep[]; graph: FlowGraph | null | undefined; version: number | null | undefined; live: boolean }) {
  const captured = capturedAlong(steps)
  const edgeLabel = (id: string | null) => (id ? (graph?.edges ?? []).find((e) => e.id === id)?.label : undefined)
  return (
    <div className="space-y-4" data-testid="flow-path">
      <p className="text-xs text-slate-500">
        {version ? `Published version ${version}` : 'A published version'} of the flow{live ? ', so far' : ''}.
      </p>
      {steps.length === 0 ? (
        <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-500">{live ? 'No step yet.' : 'The call took no step through the flow.'}</p>
      ) : (
        <ol className="space-y-2" aria-label="Nodes visited">
          {steps.map((step, index) => (
            <li key={index} className="rounded-lg bg-slate-50 px-3 py-2 text-sm" data-testid="flow-path-step">
              <p className="flex flex-wrap items-baseline justify-between gap-2">
                <span className="font-medium text-slate-900">
                  {index + 1}. {step.node_name}
                </span>
                {step.at !== null && <span className="text-xs tabular-nums text-slate-500">{step.at.toFixed(1)} s</span>}
              </p>
              <p className="text-xs text-slate-600">
                {edgeLabel(step.edge_id) ? <span className="font-medium">{`Took "${edgeLabel(step.edge_id)}": `}</span> : null}
                {step.reason}
              </p>
              {step.heard && <p className="mt-0.5 text-xs italic text-slate-500">Heard: “{step.heard}”</p>}
            </li>
          ))}
        </ol>
      )}
      <div>
        <h3 className="text-sm font-medium text-slate-700">Variables captured</h3>
        {captured.length ? (
          <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm" data-testid="flow-captured">
            {captured.map(([name, value]) => (
              <div key={name} className="contents">
                <dt className="font-mono text-xs text-slate-500">{name}</dt>
                <dd className="text-slate-900">{value}</dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="mt-1 text-xs text-slate-500">None.</p>
        )}
      </div>
      {graph && (
        <Suspense fallback={<Skeleton className="h-96 w-full" />}>
          <FlowPathGraph graph={graph} steps={steps} />
        </Suspense>
      )}
    </div>
  )
}
