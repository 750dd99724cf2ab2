/** Choose one of the user's conversation flows, or none (the prompt): a flow with no published
 * version is listed but cannot be picked, and says why. The picked flow's published version
 * (the latest: what calls run) and a link to it are shown. */
import { useQuery } from '@tanstack/react-query'
import { Link } from 'react-router'
import { Select } from '@/components/kit'
import { Field } from '@/components/ui/field'
import { fieldAria } from '@/components/ui/fieldAria'
import { messageOf } from '@/lib/api'
import { flowsPickerQuery, unpickable, type FlowSummary } from './api'

interface FlowPickerProps {
  id: string
  /** The picked flow's id ('' for none). */
  value: string
  onChange: (flowId: string, flow: FlowSummary | null) => void
  error?: string
  /** What "none" means here ("the prompt", "the agent's"). */
  noneLabel?: string
  disabled?: boolean
}

export function FlowPicker({ id, value, onChange, error, noneLabel = 'None: the prompt leads the call', disabled }: FlowPickerProps) {
  const flows = useQuery(flowsPickerQuery)
  const list = flows.data?.data ?? []
  const picked = list.find((f) => f.id === value) ?? null
  const problem = error ?? (flows.isError ? messageOf(flows.error, 'Failed to load the flows') : undefined)
  const hint = picked ? (
    <PickedHint flow={picked} />
  ) : list.length === 0 && flows.isSuccess ? (
    <>
      You have no flows yet: <Link to="/dashboard/flows" className="font-medium text-indigo-600 hover:underline">make one</Link>.
    </>
  ) : (
    'Only a published flow can run calls.'
  )
  return (
    <Field id={id} label="Conversation flow" error={problem} hint={hint}>
      <Select
        id={id}
        value={value}
        disabled={disabled || flows.isPending}
        onChange={(e) => onChange(e.target.value, list.find((f) => f.id === e.target.value) ?? null)}
        {...fieldAria(id, problem, true)}
      >
        <option value="">{noneLabel}</option>
        {value && !picked && flows.isSuccess && <option value={value}>A flow no longer in your list</option>}
        {list.map((flow) => {
          const why = unpickable(flow)
          return (
            <option key={flow.id} value={flow.id} disabled={why !== null}>
              {why ? `${flow.name} (${why})` : `${flow.name} (version ${flow.published_version})`}
            </option>
          )
        })}
      </Select>
    </Field>
  )
}

function PickedHint({ flow }: { flow: FlowSummary }) {
  return (
    <span data-testid="flow-picked">
      Calls run published version {flow.published_version}
      {flow.has_unpublished_changes && ' (the draft has changes not published yet)'}.{' '}
      <Link to={`/dashboard/flows/${flow.id}`} className="font-medium text-indigo-600 hover:underline">
        Open the flow
      </Link>
    </span>
  )
}
