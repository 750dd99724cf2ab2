import { useQuery } from '@tanstack/react-query'
import { messageOf } from '@/lib/api'
import { agentsQuery, AGENTS_MAX } from '@/components/agents/api'

/** "Start from agent": the user's saved agents; choosing one fills the form with its settings. */
export function AgentPicker({ value, onChange, disabled }: { value: string; onChange: (id: string) => void; disabled?: boolean }) {
  const agents = useQuery(agentsQuery(1, AGENTS_MAX))
  const list = agents.data?.data ?? []
  return (
    <div>
      <label htmlFor="agent" className="text-sm font-medium text-slate-700">
        Start from agent
      </label>
      <select
        id="agent"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        disabled={disabled || agents.isPending}
        className="mt-1 h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm disabled:bg-slate-50"
      >
        <option value="">{agents.isPending ? 'Loading agents…' : list.length ? 'No agent: write the prompt here' : 'No saved agents yet'}</option>
        {list.map((agent) => (
          <option key={agent.id} value={agent.id}>
            {agent.name}
          </option>
        ))}
      </select>
      {agents.isError && (
        <p role="alert" className="mt-1 text-xs text-rose-600">
          {messageOf(agents.error, 'Failed to load agents')}
        </p>
      )}
    </div>
  )
}
