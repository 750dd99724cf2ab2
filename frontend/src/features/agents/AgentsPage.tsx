/** Saved agents: the user's list (name, voice, the variables it asks for, when it changed),
 * a link to create one, edit, and delete after a confirmation. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Bot, Pencil, Plus, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { agentKeys, agentsApi, agentsQuery, type AgentSummary } from '@/components/agents/api'
import { PageHeader, TableHead, TableState, TD } from '@/components/kit'
import { Modal } from '@/components/Modal'
import { Pager } from '@/components/Pager'
import { Button } from '@/components/ui/button'
import { Card, Spinner } from '@/components/ui/card'
import { messageOf } from '@/lib/api'
import { formatDateTime } from '@/lib/format'
import { notify } from '@/lib/toast'

export function AgentsPage() {
  const [page, setPage] = useState(1)
  const [deleting, setDeleting] = useState<AgentSummary | null>(null)
  const agents = useQuery(agentsQuery(page))
  const client = useQueryClient()
  const rows = agents.data?.data ?? []
  const lastPage = agents.data?.pagination.last_page ?? 1

  const remove = useMutation({
    mutationFn: (agent: AgentSummary) => agentsApi.remove(agent.id),
    onSuccess: (_, agent) => {
      notify.success(`Agent "${agent.name}" deleted`)
      setDeleting(null)
      // The last row of a page past the first: show the page before.
      if (rows.length === 1 && page > 1) setPage(page - 1)
      void client.invalidateQueries({ queryKey: agentKeys.all })
    },
    onError: (error) => notify.error(messageOf(error, 'Failed to delete the agent')),
  })

  const newAgent = (
    <Button asChild>
      <Link to="/dashboard/agents/new">
        <Plus className="h-4 w-4" aria-hidden /> New agent
      </Link>
    </Button>
  )
  const empty = !agents.isPending && !agents.isError && rows.length === 0

  return (
    <div className="space-y-6">
      <PageHeader title="Agents" subtitle="Saved prompts and settings to start calls from. Use {{variables}} for what changes per call." action={newAgent} />
      {agents.isError ? (
        <Card className="p-6">
          <p role="alert" className="text-sm text-rose-600">
            {messageOf(agents.error, 'Failed to load agents')}
          </p>
          <Button variant="secondary" size="sm" className="mt-3" onClick={() => void agents.refetch()}>
            Try again
          </Button>
        </Card>
      ) : empty ? (
        <Card className="flex flex-col items-center gap-3 px-6 py-12 text-center">
          <Bot className="h-10 w-10 text-slate-300" aria-hidden />
          <p className="font-semibold text-slate-900">No agents yet</p>
          <p className="max-w-md text-sm text-slate-500">An agent keeps a prompt, a voice and the call's settings under a name, so Send Call can start from it.</p>
          {newAgent}
        </Card>
      ) : (
        <Card className="overflow-hidden">
          <div className="overflow-x-auto">
            <table className="w-full min-w-[40rem]" data-testid="agents-table">
              <TableHead labels={['Name', 'Voice', 'Variables', 'Updated', 'Actions']} widths={{ Actions: 'w-28' }} />
              <tbody className="divide-y divide-slate-100">
                <TableState columns={5} rows={3} loading={agents.isPending} empty="" hasRows={rows.length > 0} />
                {rows.map((agent) => (
                  <tr key={agent.id}>
                    <td className={`${TD} font-medium text-slate-900`}>
                      <Link to={`/dashboard/agents/${agent.id}`} className="hover:text-indigo-700 hover:underline">
                        {agent.name}
                      </Link>
                    </td>
                    <td className={TD}>{agent.voice}</td>
                    <td className={`${TD} text-xs text-slate-500`}>{agent.variables.length ? agent.variables.map((v) => `{{${v}}}`).join(' ') : '—'}</td>
                    <td className={`${TD} whitespace-nowrap`}>
                      <time dateTime={agent.updated_at}>{formatDateTime(agent.updated_at)}</time>
                    </td>
                    <td className={TD}>
                      <div className="flex items-center gap-1">
                        <Button variant="ghost" size="sm" asChild aria-label={`Edit ${agent.name}`}>
                          <Link to={`/dashboard/agents/${agent.id}`}>
                            <Pencil className="h-4 w-4" aria-hidden />
                          </Link>
                        </Button>
                        <Button variant="ghost" size="sm" aria-label={`Delete ${agent.name}`} onClick={() => setDeleting(agent)}>
                          <Trash2 className="h-4 w-4 text-rose-600" aria-hidden />
                        </Button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {lastPage > 1 && <Pager page={page} lastPage={lastPage} onPage={setPage} busy={agents.isFetching} />}
        </Card>
      )}
      {deleting && (
        <Modal
          open
          onOpenChange={(open) => !open && !remove.isPending && setDeleting(null)}
          title="Delete agent"
          footer={
            <>
              <Button variant="secondary" onClick={() => setDeleting(null)} disabled={remove.isPending}>
                Cancel
              </Button>
              <Button variant="danger" onClick={() => remove.mutate(deleting)} disabled={remove.isPending}>
                {remove.isPending && <Spinner className="h-4 w-4" />} Delete
              </Button>
            </>
          }
        >
          <p className="text-sm text-slate-700">
            Delete <strong>{deleting.name}</strong>? Calls already placed from it keep their settings and transcripts.
          </p>
        </Modal>
      )}
    </div>
  )
}
