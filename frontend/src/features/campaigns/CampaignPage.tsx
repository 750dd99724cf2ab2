/** /dashboard/campaigns/:campaignId: a campaign's live counters (pending, in a call, done by
 * outcome), its calls in progress, the contacts (search, filter, open the call), pause, resume,
 * cancel, and the results as CSV. The counters move with the socket's `campaign-updated`. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Download, Pause, Play, Settings2, XCircle } from 'lucide-react'
import { useCallback, useState } from 'react'
import { Link, useParams } from 'react-router'
import { PageHeader, SearchBox, Select, TD } from '@/components/kit'
import { Pager } from '@/components/Pager'
import { ConfirmDialog, Section, Table } from '@/components/panels'
import { Button } from '@/components/ui/button'
import { Card, Spinner } from '@/components/ui/card'
import { messageOf } from '@/lib/api'
import { saveBlob } from '@/lib/download'
import { formatDateTime } from '@/lib/format'
import { useSocketEvent } from '@/lib/realtime'
import { notify } from '@/lib/toast'
import { campaignKeys, campaignQuery, campaignsApi, contactsQuery, DAYS, type Action, type Campaign, type ContactFilters, type ContactStatus } from './api'
import { counts, dollars, OUTCOME_LABEL, STATUS_LABEL } from './labels'
import { Count, Progress, StateBadge } from './parts'

export function CampaignPage() {
  const { campaignId = '' } = useParams()
  const campaign = useQuery(campaignQuery(campaignId))
  const client = useQueryClient()
  useSocketEvent('campaign-updated', (data) => {
    if (data.campaignId === campaignId) void client.invalidateQueries({ queryKey: campaignKeys.one(campaignId) })
  })
  if (campaign.isPending) return <Spinner />
  if (campaign.isError)
    return (
      <Card className="p-6">
        <p role="alert" className="text-sm text-rose-600">
          {messageOf(campaign.error, 'Failed to load the campaign')}
        </p>
        <Link to="/dashboard/campaigns" className="mt-3 inline-block text-sm text-indigo-700 underline">
          All campaigns
        </Link>
      </Card>
    )
  const c = campaign.data
  return (
    <div className="space-y-6">
      <PageHeader title={c.name} subtitle={`${c.agent_name ?? (c.agent_id ? 'Agent deleted' : 'API batch')} · ${c.days.map((d) => DAYS[d]).join(', ')} · ${c.calling_window} in the callee's time · ${c.concurrency} at once, ${c.pace_per_minute}/min`} action={<Actions campaign={c} />} />
      <Overview campaign={c} />
      <Contacts campaign={c} />
    </div>
  )
}

function Actions({ campaign }: { campaign: Campaign }) {
  const client = useQueryClient()
  const [cancelling, setCancelling] = useState(false)
  const act = useMutation({
    mutationFn: (action: Action) => campaignsApi.act(campaign.id, action),
    onSuccess: (res) => {
      notify.success(res.message)
      setCancelling(false)
      client.setQueryData(campaignKeys.one(campaign.id), res.data)
      void client.invalidateQueries({ queryKey: campaignKeys.all })
    },
    onError: (error) => notify.error(messageOf(error, 'The campaign could not be changed')),
  })
  const exportCsv = useMutation({
    mutationFn: () => campaignsApi.exportCsv(campaign.id),
    onSuccess: (blob) => saveBlob(blob, `campaign-${campaign.name.replace(/[^\w-]+/g, '-').slice(0, 40)}.csv`),
    onError: (error) => notify.error(messageOf(error, 'Failed to export the results')),
  })
  const s = campaign.state
  return (
    <div className="flex flex-wrap gap-2">
      {s === 'draft' && (
        <Button asChild>
          <Link to={`/dashboard/campaigns/${campaign.id}/setup`}>
            <Settings2 className="h-4 w-4" aria-hidden /> Continue setup
          </Link>
        </Button>
      )}
      {(s === 'scheduled' || s === 'running') && (
        <Button variant="secondary" onClick={() => act.mutate('pause')} disabled={act.isPending}>
          <Pause className="h-4 w-4" aria-hidden /> Pause
        </Button>
      )}
      {s === 'paused' && (
        <Button onClick={() => act.mutate('resume')} disabled={act.isPending}>
          <Play className="h-4 w-4" aria-hidden /> Resume
        </Button>
      )}
      {s !== 'completed' && s !== 'cancelled' && (
        <Button variant="secondary" onClick={() => setCancelling(true)} disabled={act.isPending}>
          <XCircle className="h-4 w-4" aria-hidden /> Cancel
        </Button>
      )}
      <Button variant="secondary" onClick={() => exportCsv.mutate()} disabled={exportCsv.isPending}>
        <Download className="h-4 w-4" aria-hidden /> Export CSV
      </Button>
      <ConfirmDialog
        open={cancelling}
        title="Cancel this campaign?"
        message="No more contacts will be called; calls in progress finish. A cancelled campaign cannot be resumed."
        confirm="Cancel campaign"
        busy={act.isPending}
        onConfirm={() => act.mutate('cancel')}
        onCancel={() => setCancelling(false)}
      />
    </div>
  )
}

function Overview({ campaign }: { campaign: Campaign }) {
  const n = counts(campaign)
  const outcomes = Object.entries(n.outcomes).sort((a, b) => b[1] - a[1])
  return (
    <Card className="space-y-5 p-5" data-testid="campaign-overview">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div className="flex items-center gap-3">
          <StateBadge state={campaign.state} />
          {campaign.state_reason && <p className="text-sm text-slate-600" data-testid="campaign-reason">{campaign.state_reason}</p>}
        </div>
        <div className="w-full max-w-sm">
          <Progress campaign={campaign} />
        </div>
      </div>
      <div className="grid gap-3 sm:grid-cols-3 lg:grid-cols-6">
        <Count label="To call" value={String(n.pending)} testId="count-pending" />
        <Count label="In a call" value={String(n.calling)} testId="count-calling" />
        <Count label="Done" value={String(n.done)} testId="count-done" />
        <Count label="Opted out" value={String(n.opted_out)} testId="count-opted-out" />
        <Count label="Skipped" value={String(n.skipped)} testId="count-skipped" />
        <Count label="Spent" value={dollars(campaign.spent)} testId="campaign-spent" />
      </div>
      {outcomes.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label="Done by outcome" data-testid="campaign-outcomes">
          {outcomes.map(([outcome, count]) => (
            <li key={outcome} className="rounded-full bg-slate-100 px-3 py-1 text-xs text-slate-700">
              {OUTCOME_LABEL[outcome] ?? outcome}: <span className="font-semibold">{count}</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}

function Contacts({ campaign }: { campaign: Campaign }) {
  const [filters, setFilters] = useState<ContactFilters>({})
  const [page, setPage] = useState(1)
  const client = useQueryClient()
  const contacts = useQuery(contactsQuery(campaign.id, filters, page))
  // The list follows the counters: a contact moves when its call starts or ends.
  useSocketEvent('campaign-updated', (data) => {
    if (data.campaignId === campaign.id) void client.invalidateQueries({ queryKey: campaignKeys.contacts(campaign.id) })
  })
  const onSearch = useCallback((search: string) => {
    setFilters((f) => ({ ...f, search: search || undefined }))
    setPage(1)
  }, [])
  const rows = contacts.data?.data ?? []
  const lastPage = contacts.data?.pagination.last_page ?? 1
  const variables = Object.keys(rows[0]?.variables ?? {}).slice(0, 2)
  return (
    <Section
      id="campaign-contacts"
      title="Contacts"
      description="In the order of the file. Calls in progress show as In a call; open a call to hear it and read its transcript."
      action={
        <div className="flex flex-wrap gap-2">
          <Select aria-label="Filter by status" className="w-40" value={filters.status ?? ''} onChange={(e) => {
            setFilters((f) => ({ ...f, status: (e.target.value || undefined) as ContactStatus | undefined }))
            setPage(1)
          }}>
            <option value="">Every status</option>
            {Object.entries(STATUS_LABEL).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Select>
          <Select aria-label="Filter by outcome" className="w-44" value={filters.outcome ?? ''} onChange={(e) => {
            setFilters((f) => ({ ...f, outcome: e.target.value || undefined }))
            setPage(1)
          }}>
            <option value="">Every outcome</option>
            {Object.entries(OUTCOME_LABEL).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Select>
        </div>
      }
    >
      <div className="px-5 py-3">
        <SearchBox placeholder="Search numbers and names" onSearch={onSearch} />
      </div>
      <Table testId="contacts-table" className="min-w-[48rem]" labels={['Row', 'Number', ...variables, 'Status', 'Attempts', 'Outcome', 'Disposition', 'Call']} skeletonRows={4} loading={contacts.isPending} error={contacts.isError ? 'Failed to load the contacts' : null} empty={filters.status || filters.outcome || filters.search ? 'No contact matches.' : 'No contacts.'}>
        {rows.map((contact) => (
          <tr key={contact.id} data-testid="contact-row">
            <td className={`${TD} tabular-nums text-slate-500`}>{contact.row}</td>
            <td className={`${TD} font-mono text-slate-900`}>{contact.phone_number}</td>
            {variables.map((name) => (
              <td key={name} className={TD}>
                {contact.variables[name] ?? ''}
              </td>
            ))}
            <td className={TD}>
              {STATUS_LABEL[contact.status]}
              {contact.status === 'pending' && contact.next_attempt_at && <p className="text-xs text-slate-500">from {formatDateTime(contact.next_attempt_at)}</p>}
              {contact.status === 'pending' && contact.note && <p className="max-w-xs text-xs text-amber-800" data-testid="contact-waiting">{contact.note}</p>}
            </td>
            <td className={`${TD} tabular-nums`}>{contact.attempts}</td>
            <td className={TD} title={contact.note ?? undefined}>
              {contact.outcome ? (OUTCOME_LABEL[contact.outcome] ?? contact.outcome) : '—'}
            </td>
            <td className={TD}>{contact.disposition ?? '—'}</td>
            <td className={TD}>
              {contact.last_call_id ? (
                <Link className="text-indigo-700 hover:underline" to={`/dashboard/call-logs?call=${contact.last_call_id}`}>
                  Open
                </Link>
              ) : (
                '—'
              )}
            </td>
          </tr>
        ))}
      </Table>
      {lastPage > 1 && <Pager page={page} lastPage={lastPage} onPage={setPage} busy={contacts.isFetching} />}
    </Section>
  )
}
