/** Send Call's conversation flow: one of the user's published flows instead of the prompt, and
 * the node to start at (from the picked version's graph; none: the flow's start). */
import { useQuery } from '@tanstack/react-query'
import { useEffect } from 'react'
import { useWatch, type UseFormReturn } from 'react-hook-form'
import { flowsPickerQuery, flowVersionQuery, givenVariables } from '@/components/flows/api'
import { FlowPicker } from '@/components/flows/FlowPicker'
import { Select } from '@/components/kit'
import { Field } from '@/components/ui/field'
import { messageOf } from '@/lib/api'
import type { SendCallForm } from './form'

export function FlowChoice({ form, disabled }: { form: UseFormReturn<SendCallForm>; disabled: boolean }) {
  const { control, setValue, clearErrors, formState: { errors } } = form
  const [flowId, flowVersion, startNodeId] = useWatch({ control, name: ['flowId', 'flowVersion', 'startNodeId'] })
  const flows = useQuery(flowsPickerQuery)
  // From an agent the flow comes with no version: its latest published one is what will run.
  const version = flowVersion ?? flows.data?.data.find((f) => f.id === flowId)?.published_version ?? null
  const pick = (id: string, picked: number | null) => {
    setValue('flowId', id, { shouldDirty: true })
    setValue('flowVersion', picked)
    setValue('startNodeId', '')
    setValue('flowVariables', [])
    clearErrors(['flowId', 'prompt'])
  }
  return (
    <div className="space-y-3">
      <FlowPicker id="flow" value={flowId} disabled={disabled} error={errors.flowId?.message} onChange={(id, flow) => pick(id, flow?.published_version ?? null)} />
      {flowId && version !== null && (
        <StartNode flowId={flowId} version={version} value={startNodeId} disabled={disabled} onChange={(id) => setValue('startNodeId', id)} onVariables={(names) => setValue('flowVariables', names)} />
      )}
    </div>
  )
}

interface StartNodeProps {
  flowId: string
  version: number
  value: string
  disabled: boolean
  onChange: (id: string) => void
  /** The variables the version is given by the call, once its graph is loaded. */
  onVariables: (names: string[]) => void
}

function StartNode({ flowId, version, value, disabled, onChange, onVariables }: StartNodeProps) {
  const graph = useQuery(flowVersionQuery(flowId, version))
  const loaded = graph.data?.graph
  useEffect(() => {
    if (loaded) onVariables(givenVariables(loaded))
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per graph loaded
  }, [loaded])
  const nodes = (graph.data?.graph.nodes ?? []).filter((node) => node.kind !== 'global')
  const start = nodes.find((node) => node.id === graph.data?.graph.start_node_id)
  const problem = graph.isError ? messageOf(graph.error, 'Failed to load the flow') : undefined
  return (
    <Field id="start-node" label="Start at" error={problem} hint="Begin the call part-way through the flow (for example at the confirmation).">
      <Select id="start-node" value={value} disabled={disabled || graph.isPending} onChange={(e) => onChange(e.target.value)}>
        <option value="">{start ? `The flow's start: ${start.name}` : "The flow's start"}</option>
        {nodes
          .filter((node) => node.id !== start?.id)
          .map((node) => (
            <option key={node.id} value={node.id}>
              {node.name}
            </option>
          ))}
      </Select>
    </Field>
  )
}
