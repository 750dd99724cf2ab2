/** Flows (/dashboard/flows): the user's conversation flows, paged; a new flow (blank or from a
 * starter), an imported JSON file, and delete after a confirmation. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Pencil, Plus, Trash2, Upload, Workflow } from 'lucide-react'
import { useRef, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { PageHeader, TableHead, TableState, TD } from '@/components/kit'
import { Modal } from '@/components/Modal'
import { Pager } from '@/components/Pager'
import { Button } from '@/components/ui/button'
import { Card, Spinner } from '@/components/ui/card'
import { messageOf } from '@/lib/api'
import { formatDateTime } from '@/lib/format'
import { notify } from '@/lib/toast'
import { flowKeys, flowsApi, flowsQuery, startersQuery } from './api'
import { NewFlowDialog } from './NewFlowDialog'
import type { FlowExport, FlowSummary } from './types'

export function FlowsPage() {
  const [page, setPage] = useState(1)
  const [creating, setCreating] = useState<string | null>(null)
  const [deleting, setDeleting] = useState<FlowSummary | null>(null)
  const flows = useQuery(flowsQuery(page))
  const client = useQueryClient()
  const rows = flows.data?.data ?? []
  const lastPage = flows.data?.pagination.last_page ?? 1
  const remove = useMutation({
    mutationFn: (flow: FlowSummary) => flowsApi.remove(flow.id),
    onSuccess: (_, flow) => {
      notify.success(`Flow "${flow.name}" deleted`)
      setDeleting(null)
      if (rows.length === 1 && page > 1) setPage(page - 1)
      void client.invalidateQueries({ queryKey: flowKeys.all })
    },
    onError: (error) => notify.error(messageOf(error, 'Failed to delete the flow')),
  })
  const actions = (
    <div className="flex gap-2">
      <ImportButton />
      <Button onClick={() => setCreating('')}>
        <Plus className="h-4 w-4" aria-hidden /> New flow
      </Button>
    </div>
  )
  const empty = !flows.isPending && !flows.isError && rows.length === 0
  return (
    <div className="space-y-6">
      <PageHeader title="Flows" subtitle="Draw the conversation: what the agent says, what it asks, and where each answer leads." action={actions} />
      {flows.isError ? (
        <Card className="p-6">
          <p role="alert" className="text-sm text-rose-600">
            {messageOf(flows.error, 'Failed to load flows')}
          </p>
          <Button variant="secondary" size="sm" className="mt-3" onClick={() => void flows.refetch()}>
            Try again
          </Button>
        </Card>
      ) : empty ? (
        <EmptyFlows onCreate={setCreating} />
      ) : (
        <Card className="overflow-hidden">
          <div className="overflow-x-auto">
            <table className="w-full min-w-[40rem]" data-testid="flows-table">
              <TableHead labels={['Name', 'Status', 'Nodes', 'Updated', 'Actions']} widths={{ Actions: 'w-28' }} />
              <tbody className="divide-y divide-slate-100">
                <TableState columns={5} rows={3} loading={flows.isPending} empty="" hasRows={rows.length > 0} />
                {rows.map((flow) => (
                  <FlowRow key={flow.id} flow={flow} onDelete={() => setDeleting(flow)} />
                ))}
              </tbody>
            </table>
          </div>
          {lastPage > 1 && <Pager page={page} lastPage={lastPage} onPage={setPage} busy={flows.isFetching} />}
        </Card>
      )}
      {creating !== null && <NewFlowDialog starter={creating} onClose={() => setCreating(null)} />}
      {deleting && (
        <Modal
          open
          onOpenChange={(open) => !open && !remove.isPending && setDeleting(null)}
          title="Delete flow"
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
            Delete <strong>{deleting.name}</strong> and its published versions? Calls already placed on it keep their path.
          </p>
        </Modal>
      )}
    </div>
  )
}

function FlowRow({ flow, onDelete }: { flow: FlowSummary; onDelete: () => void }) {
  return (
    <tr>
      <td className={`${TD} font-medium text-slate-900`}>
        <Link to={`/dashboard/flows/${flow.id}`} className="hover:text-indigo-700 hover:underline">
          {flow.name}
        </Link>
        {flow.description && <p className="text-xs font-normal text-slate-500">{flow.description}</p>}
      </td>
      <td className={TD}>
        {flow.published_version ? `Published v${flow.published_version}` : 'Draft'}
        {flow.published_version && flow.has_unpublished_changes ? <span className="block text-xs text-amber-700">Unpublished changes</span> : null}
      </td>
      <td className={TD}>{flow.node_count}</td>
      <td className={`${TD} whitespace-nowrap`}>
        <time dateTime={flow.updated_at}>{formatDateTime(flow.updated_at)}</time>
      </td>
      <td className={TD}>
        <div className="flex items-center gap-1">
          <Button variant="ghost" size="sm" asChild aria-label={`Edit ${flow.name}`}>
            <Link to={`/dashboard/flows/${flow.id}`}>
              <Pencil className="h-4 w-4" aria-hidden />
            </Link>
          </Button>
          <Button variant="ghost" size="sm" aria-label={`Delete ${flow.name}`} onClick={onDelete}>
            <Trash2 className="h-4 w-4 text-rose-600" aria-hidden />
          </Button>
        </div>
      </td>
    </tr>
  )
}

function EmptyFlows({ onCreate }: { onCreate: (starter: string) => void }) {
  const starters = useQuery(startersQuery)
  return (
    <Card className="flex flex-col items-center gap-3 px-6 py-12 text-center">
      <Workflow className="h-10 w-10 text-slate-300" aria-hidden />
      <p className="font-semibold text-slate-900">No flows yet</p>
      <p className="max-w-md text-sm text-slate-500">A flow is the call drawn as a graph: the agent follows it line by line, with or without a language model. Start blank or from a starter.</p>
      <Button onClick={() => onCreate('')}>
        <Plus className="h-4 w-4" aria-hidden /> New flow
      </Button>
      <ul className="mt-4 grid w-full max-w-3xl gap-3 sm:grid-cols-2" aria-label="Starter flows">
        {(starters.data ?? []).map((s) => (
          <li key={s.key}>
            <button type="button" onClick={() => onCreate(s.key)} className="h-full w-full rounded-xl border border-slate-200 p-4 text-left hover:border-indigo-300 hover:bg-indigo-50/40 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500">
              <span className="block font-medium text-slate-900">{s.name}</span>
              <span className="block text-sm text-slate-500">{s.description}</span>
            </button>
          </li>
        ))}
      </ul>
    </Card>
  )
}

/** Reads a flow file (what Export saves) and creates a flow from it. */
function ImportButton() {
  const picker = useRef<HTMLInputElement>(null)
  const navigate = useNavigate()
  const client = useQueryClient()
  const upload = useMutation({
    mutationFn: async (file: File) => {
      let body: FlowExport
      try {
        body = JSON.parse(await file.text()) as FlowExport
      } catch {
        throw new Error(`${file.name} is not a JSON file`)
      }
      return flowsApi.importFile(body)
    },
    onSuccess: (result) => {
      void client.invalidateQueries({ queryKey: flowKeys.all })
      notify.success(`Flow "${result.data.name}" imported`)
      navigate(`/dashboard/flows/${result.data.id}`)
    },
    onError: (error) => notify.error(messageOf(error, 'Failed to import the flow'), 'Import failed'),
  })
  return (
    <>
      <input ref={picker} type="file" accept=".json,application/json" className="sr-only" aria-label="Flow file" data-testid="flow-file" tabIndex={-1}
        onChange={(e) => {
          const file = e.target.files?.[0]
          e.target.value = ''
          if (file) upload.mutate(file)
        }}
      />
      <Button variant="secondary" onClick={() => picker.current?.click()} disabled={upload.isPending}>
        {upload.isPending ? <Spinner className="h-4 w-4" /> : <Upload className="h-4 w-4" aria-hidden />} Import
      </Button>
    </>
  )
}
