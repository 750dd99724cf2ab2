/** The agent's Tests tab (/dashboard/agents/:agentId/tests): its lab suite, runs and results. */
import { useQuery } from '@tanstack/react-query'
import { useParams } from 'react-router'
import { agentQuery } from '@/components/agents/api'
import { TestsPage } from '@/components/lab/TestsPage'
import { messageOf } from '@/lib/api'

export function AgentTestsPage() {
  const { agentId = '' } = useParams()
  const agent = useQuery(agentQuery(agentId))
  return (
    <TestsPage
      owner={{ kind: 'agent', id: agentId }}
      title="Edit agent"
      subtitle={agent.data ? `${agent.data.name}: scenarios, runs and their results.` : 'Scenarios, runs and their results.'}
      back={{ to: '/dashboard/agents', label: 'All agents' }}
      error={agent.isError ? messageOf(agent.error, 'Failed to load the agent') : null}
    />
  )
}
