/** A flow's Tests tab (/dashboard/flows/:flowId/tests): its own lab suite (the flow called alone,
 * at its published version), runs and results. */
import { useQuery } from '@tanstack/react-query'
import { useParams } from 'react-router'
import { TestsPage } from '@/components/lab/TestsPage'
import { messageOf } from '@/lib/api'
import { flowQuery } from './api'

export function FlowTestsPage() {
  const { flowId = '' } = useParams()
  const flow = useQuery(flowQuery(flowId))
  return (
    <TestsPage
      owner={{ kind: 'flow', id: flowId }}
      title={flow.data?.name ?? 'Flow'}
      subtitle="Its own suite: each scenario calls the flow's published version alone."
      back={{ to: '/dashboard/flows', label: 'All flows' }}
      error={flow.isError ? messageOf(flow.error, 'Failed to load the flow') : null}
    />
  )
}
