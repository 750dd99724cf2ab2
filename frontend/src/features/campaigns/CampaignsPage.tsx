/** /dashboard/campaigns: the user's campaigns with their state and progress, a way to a new one. */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Megaphone, Plus } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { PageHeader, TableHead, TableState, TD } from '@/components/kit'
import { Pager } from '@/components/Pager'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { messageOf } from '@/lib/api'
import { formatDateTime } from '@/lib/format'
import { useSocketEvent } from '@/lib/realtime'
import { campaignKeys, campaignsQuery } from './api'
import { Progress, StateBadge } from './parts'

export function CampaignsPage() {
  const [page, setPage] = useState(1)
  const campaigns = useQuery(campaignsQuery(page))
  const client = useQueryClient()
  useSocketEvent('campaign-updated', () => void client.invalidateQueries({ queryKey: campaignKeys.all }))
  const rows = campaigns.data?.data ?? []
  const lastPage = campaigns.data?.pagination.last_page ?? 1
  const newCampaign = (
    <Button asChild>
      <Link to="/dashboard/campaigns/new">
        <Plus className="h-4 w-4" aria-hidden /> New campaign
      </Link>
    </Button>
  )
  const empty = !campaigns.isPending && !campaigns.isError && rows.length === 0

  return (
    <div className="space-y-6">
      <PageHeader title="Campaigns" subtitle="Call a list with one of your agents, on a schedule in each callee's time zone, within your limits." action={newCampaign} />
      {campaigns.isError ? (
        <Card className="p-6">
          <p role="alert" className="text-sm text-rose-600">
            {messageOf(campaigns.error, 'Failed to load campaigns')}
          </p>
          <Button variant="secondary" size="sm" className="mt-3" onClick={() => void campaigns.refetch()}>
            Try again
          </Button>
        </Card>
      ) : empty ? (
        <Card className="flex flex-col items-center gap-3 px-6 py-12 text-center">
          <Megaphone className="h-10 w-10 text-slate-300" aria-hidden />
          <p className="font-semibold text-slate-900">No campaigns yet</p>
          <p className="max-w-md text-sm text-slate-500">Upload a CSV of contacts, pick an agent and a schedule, and Callwright calls them lawfully: in their calling hours, never a do-not-call number.</p>
          {newCampaign}
        </Card>
      ) : (
        <Card className="overflow-hidden">
          <div className="overflow-x-auto">
            <table className="w-full min-w-[44rem]" data-testid="campaigns-table">
              <TableHead labels={['Name', 'Agent', 'State', 'Progress', 'Created']} />
              <tbody className="divide-y divide-slate-100">
                <TableState columns={5} rows={3} loading={campaigns.isPending} empty="" hasRows={rows.length > 0} />
                {rows.map((campaign) => (
                  <tr key={campaign.id}>
                    <td className={`${TD} font-medium text-slate-900`}>
                      <Link to={`/dashboard/campaigns/${campaign.id}`} className="hover:text-indigo-700 hover:underline">
                        {campaign.name}
                      </Link>
                    </td>
                    <td className={TD}>{campaign.agent_name ?? (campaign.agent_id ? '—' : 'API batch')}</td>
                    <td className={TD}>
                      <StateBadge state={campaign.state} />
                    </td>
                    <td className={TD}>
                      <Progress campaign={campaign} />
                    </td>
                    <td className={`${TD} whitespace-nowrap`}>{formatDateTime(campaign.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {lastPage > 1 && <Pager page={page} lastPage={lastPage} onPage={setPage} busy={campaigns.isFetching} />}
        </Card>
      )}
    </div>
  )
}
