/** Above the canvas: add a node of each kind, undo and redo, zoom in, out and to fit. */
import { useReactFlow } from '@xyflow/react'
import { Maximize, Redo2, Undo2, ZoomIn, ZoomOut } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { KIND_LOOK } from './look'
import { NODE_KINDS } from './graph'
import type { NodeKind } from './types'

interface ToolbarProps {
  onAdd: (kind: NodeKind) => void
  canUndo: boolean
  canRedo: boolean
  onUndo: () => void
  onRedo: () => void
}

export function EditorToolbar({ onAdd, canUndo, canRedo, onUndo, onRedo }: ToolbarProps) {
  const view = useReactFlow()
  return (
    <div role="toolbar" aria-label="Flow tools" className="flex flex-wrap items-center gap-1 border-b border-slate-200 bg-white px-2 py-1.5">
      {NODE_KINDS.map(({ kind, label, hint }) => {
        const Icon = KIND_LOOK[kind].icon
        return (
          <Button key={kind} variant="ghost" size="sm" title={hint} onClick={() => onAdd(kind)} aria-label={`Add ${label} node`}>
            <Icon className="h-4 w-4" aria-hidden /> {label}
          </Button>
        )
      })}
      <span className="mx-1 h-5 w-px bg-slate-200" aria-hidden />
      <Button variant="ghost" size="sm" onClick={onUndo} disabled={!canUndo} aria-label="Undo" title="Undo (Ctrl+Z)">
        <Undo2 className="h-4 w-4" aria-hidden />
      </Button>
      <Button variant="ghost" size="sm" onClick={onRedo} disabled={!canRedo} aria-label="Redo" title="Redo (Ctrl+Shift+Z)">
        <Redo2 className="h-4 w-4" aria-hidden />
      </Button>
      <span className="mx-1 h-5 w-px bg-slate-200" aria-hidden />
      <Button variant="ghost" size="sm" onClick={() => void view.zoomIn({ duration: 150 })} aria-label="Zoom in">
        <ZoomIn className="h-4 w-4" aria-hidden />
      </Button>
      <Button variant="ghost" size="sm" onClick={() => void view.zoomOut({ duration: 150 })} aria-label="Zoom out">
        <ZoomOut className="h-4 w-4" aria-hidden />
      </Button>
      <Button variant="ghost" size="sm" onClick={() => void view.fitView({ duration: 150, padding: 0.2 })} aria-label="Fit to view">
        <Maximize className="h-4 w-4" aria-hidden />
      </Button>
    </div>
  )
}
