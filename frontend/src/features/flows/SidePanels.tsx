/** The node list (select any node from the keyboard) and the problems panel (what blocks
 * publishing, each focusing its node or edge). */
import { AlertTriangle, CheckCircle2 } from 'lucide-react'
import { cn } from '@/lib/cn'
import { KIND_LOOK } from './look'
import type { Selection } from './FlowCanvas'
import type { FlowGraph, Problem } from './types'

export function NodeList({ graph, selection, onSelect }: { graph: FlowGraph; selection: Selection; onSelect: (selection: Selection) => void }) {
  return (
    <nav aria-label="Nodes">
      <h2 className="mb-2 text-sm font-semibold text-slate-900">Nodes ({graph.nodes.length})</h2>
      <ul className="max-h-48 space-y-1 overflow-y-auto">
        {graph.nodes.map((node) => {
          const Icon = KIND_LOOK[node.kind].icon
          const selected = selection?.type === 'node' && selection.id === node.id
          return (
            <li key={node.id}>
              <button
                type="button"
                aria-pressed={selected}
                onClick={() => onSelect({ type: 'node', id: node.id })}
                className={cn('flex w-full items-center gap-2 rounded-md px-2 py-1 text-left text-sm hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500', selected && 'bg-indigo-50 font-semibold text-indigo-900')}
              >
                <Icon className="h-4 w-4 shrink-0 text-slate-500" aria-hidden />
                <span className="truncate">{node.name}</span>
                <span className="sr-only">({KIND_LOOK[node.kind].label})</span>
                {node.id === graph.start_node_id && <span className="ml-auto text-xs text-slate-500">start</span>}
              </button>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}

export function ProblemsPanel({ problems, stale, onFocus }: { problems: Problem[]; stale: boolean; onFocus: (problem: Problem) => void }) {
  return (
    <section aria-labelledby="flow-problems" className="space-y-2">
      <h2 id="flow-problems" className="flex items-center gap-2 text-sm font-semibold text-slate-900">
        {problems.length ? <AlertTriangle className="h-4 w-4 text-rose-600" aria-hidden /> : <CheckCircle2 className="h-4 w-4 text-emerald-600" aria-hidden />}
        {problems.length ? `Problems (${problems.length})` : 'No problems'}
      </h2>
      {stale && <p className="text-xs text-amber-700">As of the last save: save the draft to check your changes.</p>}
      {problems.length > 0 && (
        <ul className="space-y-1" data-testid="problems">
          {problems.map((problem, i) => (
            <li key={`${i}-${problem.message}`}>
              <button
                type="button"
                onClick={() => onFocus(problem)}
                disabled={!problem.node_id && !problem.edge_id}
                className="w-full rounded-md px-2 py-1 text-left text-sm text-rose-700 hover:bg-rose-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-rose-500 disabled:cursor-default"
              >
                {problem.message}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
