/** The agent editor's Tools section (docs/actions.md, Tools): the agent's custom tools, each with
 * its endpoint and its headers (values masked: never shown again); add, edit, delete, and test
 * one against its endpoint. A new agent is saved first. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { FlaskConical, Pencil, Plus, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { toolKeys, toolsApi, toolsQuery, type AgentTool } from '@/components/agents/tools'
import { ConfirmDialog } from '@/components/panels'
import { Button } from '@/components/ui/button'
import { Card, Skeleton } from '@/components/ui/card'
import { messageOf } from '@/lib/api'
import { notify } from '@/lib/toast'
import { AgentToolForm } from './AgentToolForm'
import { AgentToolTest } from './AgentToolTest'

type Open = { kind: 'new' } | { kind: 'edit' | 'test'; id: number } | null

export function AgentToolsSection({ agentId }: { agentId: string | undefined }) {
  return (
    <Card className="space-y-4 p-5" role="region" aria-labelledby="agent-tools">
      <div>
        <h2 id="agent-tools" className="text-lg font-semibold text-slate-900">
          Tools
        </h2>
        <p className="mt-0.5 text-sm text-slate-500">Your own systems the agent can ask mid-call (with an LLM brain): a waiting line is said while one runs.</p>
      </div>
      {agentId ? <ToolList agentId={agentId} /> : <p className="text-sm text-slate-500">Create the agent first, then add its tools here.</p>}
    </Card>
  )
}

function ToolList({ agentId }: { agentId: string }) {
  const client = useQueryClient()
  const tools = useQuery(toolsQuery(agentId))
  const [open, setOpen] = useState<Open>(null)
  const [deleting, setDeleting] = useState<AgentTool | null>(null)
  const refresh = () => void client.invalidateQueries({ queryKey: toolKeys.of(agentId) })
  const remove = useMutation({
    mutationFn: (tool: AgentTool) => toolsApi.remove(agentId, tool.id),
    onSuccess: () => {
      notify.success('Tool deleted')
      setDeleting(null)
      refresh()
    },
    onError: (error) => notify.error(messageOf(error, 'Failed to delete the tool')),
  })
  const done = (saved: boolean) => {
    setOpen(null)
    if (saved) refresh()
  }
  if (tools.isPending) return <Skeleton className="h-16 w-full" />
  if (tools.isError) return <p role="alert" className="text-sm text-rose-600">{messageOf(tools.error, 'Failed to load the tools')}</p>
  return (
    <div className="space-y-3">
      {tools.data.length === 0 && open?.kind !== 'new' && <p className="text-sm text-slate-500">No tools yet.</p>}
      <ul className="space-y-3">
        {tools.data.map((tool) =>
          open?.kind === 'edit' && open.id === tool.id ? (
            <li key={tool.id}>
              <AgentToolForm agentId={agentId} tool={tool} onDone={done} />
            </li>
          ) : (
            <li key={tool.id} className="rounded-lg border border-slate-200 p-3">
              <ToolRow tool={tool} onEdit={() => setOpen({ kind: 'edit', id: tool.id })} onTest={() => setOpen(open?.kind === 'test' && open.id === tool.id ? null : { kind: 'test', id: tool.id })} onDelete={() => setDeleting(tool)} />
              {open?.kind === 'test' && open.id === tool.id && <AgentToolTest agentId={agentId} tool={tool} />}
            </li>
          ),
        )}
      </ul>
      {open?.kind === 'new' ? (
        <AgentToolForm agentId={agentId} tool={null} onDone={done} />
      ) : (
        <Button type="button" variant="secondary" size="sm" onClick={() => setOpen({ kind: 'new' })}>
          <Plus className="h-4 w-4" aria-hidden /> Add tool
        </Button>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete tool"
        message={<>Delete <strong>{deleting?.name}</strong>? Calls already placed keep their copy.</>}
        confirm="Delete"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </div>
  )
}

function ToolRow({ tool, onEdit, onTest, onDelete }: { tool: AgentTool; onEdit: () => void; onTest: () => void; onDelete: () => void }) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-2 pb-2">
      <div className="min-w-0">
        <p className="font-mono text-sm font-semibold text-slate-900">{tool.name}</p>
        <p className="text-sm text-slate-600">{tool.description}</p>
        <p className="truncate font-mono text-xs text-slate-500">
          {tool.method} {tool.url}
        </p>
        {tool.headers.length > 0 && <p className="text-xs text-slate-500">Headers: {tool.headers.map((h) => `${h.name}: ••••••••`).join(', ')}</p>}
      </div>
      <div className="flex gap-1">
        <Button type="button" variant="ghost" size="sm" aria-label={`Test ${tool.name}`} onClick={onTest}>
          <FlaskConical className="h-4 w-4" aria-hidden /> Test
        </Button>
        <Button type="button" variant="ghost" size="sm" aria-label={`Edit ${tool.name}`} onClick={onEdit}>
          <Pencil className="h-4 w-4" aria-hidden />
        </Button>
        <Button type="button" variant="ghost" size="sm" aria-label={`Delete ${tool.name}`} onClick={onDelete}>
          <Trash2 className="h-4 w-4" aria-hidden />
        </Button>
      </div>
    </div>
  )
}
