/** A flow's Tests tab (/dashboard/flows/:flowId/tests): its own lab suite (the flow called alone,
 * at its published version), runs and results. */
import { useQuery } from '@tanstack/react-query'
import { ArrowLeft } from 'lucide-react'
import { Link, useParams } from 'react-router'
import { PageHeader } from '@/components/kit'
import { LabTests } from '@/components/lab/LabTests'
import { OwnerTabs } from '@/components/lab/OwnerTabs'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { messageOf } from '@/lib/api'
import { flowQuery } from './api'

export function FlowTestsPage() {
  const { flowId = '' } = useParams()
  const flow = useQuery(flowQuery(flowId))
  const owner = { kind: 'flow', id: flowId } as const
  const back = (
    <Button variant="secondary" asChild>
      <Link to="/dashboard/flows">
        <ArrowLeft className="h-4 w-4" aria-hidden /> All flows
      </Link>
    </Button>
  )
  return (
    <div className="space-y-6">
      <PageHeader title={flow.data?.name ?? 'Flow'} subtitle="Its own suite: each scenario calls the flow's published version alone." action={back} />
      <OwnerTabs owner={owner} current="tests" />
      {flow.isError ? (
        <Card className="p-6">
          <p role="alert" className="text-sm text-rose-600">
            {messageOf(flow.error, 'Failed to load the flow')}
          </p>
        </Card>
      ) : (
        <LabTests owner={owner} />
      )}
    </div>
  )
}
