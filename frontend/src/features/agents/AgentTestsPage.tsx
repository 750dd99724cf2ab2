/** The agent's Tests tab (/dashboard/agents/:agentId/tests): its lab suite, runs and results. */
import { useQuery } from '@tanstack/react-query'
import { ArrowLeft } from 'lucide-react'
import { Link, useParams } from 'react-router'
import { agentQuery } from '@/components/agents/api'
import { PageHeader } from '@/components/kit'
import { LabTests } from '@/components/lab/LabTests'
import { OwnerTabs } from '@/components/lab/OwnerTabs'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { messageOf } from '@/lib/api'

export function AgentTestsPage() {
  const { agentId = '' } = useParams()
  const agent = useQuery(agentQuery(agentId))
  const owner = { kind: 'agent', id: agentId } as const
  const back = (
    <Button variant="secondary" asChild>
      <Link to="/dashboard/agents">
        <ArrowLeft className="h-4 w-4" aria-hidden /> All agents
      </Link>
    </Button>
  )
  return (
    <div className="space-y-6">
      <PageHeader title="Edit agent" subtitle={agent.data ? `${agent.data.name}: scenarios, runs and their results.` : 'Scenarios, runs and their results.'} action={back} />
      <OwnerTabs owner={owner} current="tests" />
      {agent.isError ? (
        <Card className="p-6">
          <p role="alert" className="text-sm text-rose-600">
            {messageOf(agent.error, 'Failed to load the agent')}
          </p>
        </Card>
      ) : (
        <LabTests owner={owner} />
      )}
    </div>
  )
}
