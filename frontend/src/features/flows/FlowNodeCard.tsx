/** A node as the canvas draws it: a colour and an icon per kind, its name and line, the start
 * marked, its problems counted, and where the text test stands. */
import { Handle, Position, type Node, type NodeProps } from '@xyflow/react'
import { AlertTriangle, Play } from 'lucide-react'
import { cn } from '@/lib/cn'
import { KIND_LOOK, nodeSummary } from './look'
import type { FlowNode } from './types'

export interface NodeCardData extends Record<string, unknown> {
  node: FlowNode
  isStart: boolean
  problems: string[]
  /** Where the text test stands now / has passed. */
  current: boolean
  visited: boolean
}
export type CanvasNode = Node<NodeCardData, 'flow'>

export function FlowNodeCard({ data, selected }: NodeProps<CanvasNode>) {
  const { node, isStart, problems, current, visited } = data
  const look = KIND_LOOK[node.kind]
  const Icon = look.icon
  return (
    <div
      data-testid={`node-${node.id}`}
      data-kind={node.kind}
      data-path={current ? 'current' : visited ? 'visited' : undefined}
      className={cn(
        'w-56 rounded-xl border-2 px-3 py-2 text-left shadow-sm',
        look.card,
        selected && 'ring-4 ring-indigo-400',
        problems.length > 0 && 'border-rose-500',
        visited && !current && 'outline outline-2 outline-offset-2 outline-emerald-300',
        current && 'outline outline-4 outline-offset-2 outline-emerald-500',
      )}
    >
      {node.kind !== 'global' && <Handle type="target" position={Position.Top} className="!h-3 !w-3 !bg-slate-500" />}
      <div className="flex items-center gap-1.5 text-xs font-semibold text-white">
        <span className={cn('inline-flex items-center gap-1 rounded px-1.5 py-0.5', look.badge)}>
          <Icon className="h-3 w-3" aria-hidden /> {look.label}
        </span>
        {isStart && (
          <span className="inline-flex items-center gap-1 rounded bg-slate-900 px-1.5 py-0.5">
            <Play className="h-3 w-3" aria-hidden /> Start
          </span>
        )}
        {problems.length > 0 && (
          <span className="ml-auto inline-flex items-center gap-1 rounded bg-rose-700 px-1.5 py-0.5" title={problems.join('\n')}>
            <AlertTriangle className="h-3 w-3" aria-hidden /> {problems.length}
          </span>
        )}
      </div>
      <p className="mt-1 truncate text-sm font-semibold text-slate-900">{node.name}</p>
      <p className="line-clamp-2 text-xs text-slate-600">{nodeSummary(node)}</p>
      <Handle type="source" position={Position.Bottom} className="!h-3 !w-3 !bg-indigo-600" />
    </div>
  )
}
