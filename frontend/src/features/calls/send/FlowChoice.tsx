/** Send Call's conversation flow: one of the user's published flows instead of the prompt, and
 * the node to start at (from the picked version's graph; none: the flow's start). */
import { useQuery } from '@tanstack/react-query'
import { useWatch, type UseFormReturn } from 'react-hook-form'
import { flowVersionQuery } from '@/components/flows/api'
import { FlowPicker } from '@/components/flows/FlowPicker'
import { Select } from '@/components/kit'
import { Field } from '@/components/ui/field'
import { messageOf } from '@/lib/api'
import type { SendCallForm } from './form'

export function FlowChoice({ form, disabled }: { form: UseFormReturn<SendCallForm>; disabled: boolean }) {
  const { control, setValue, clearErrors, formState: { errors } } = form
  const [flowId, flowVersion, startNodeId] = useWatch({ control, name: ['flowId', 'flowVersion', 'startNodeId'] })
  const pick = (id: string, version: number | null) => {
    setValue('flowId', id, { shouldDirty: true })
    setValue('flowVersion', version)
    setValue('startNodeId', '')
    clearErrors(['flowId', 'prompt'])
  }
  return (
    <div className="space-y-3">
      <FlowPicker id="flow" value={flowId} disabled={disabled} error={errors.flowId?.message} onChange={(id, flow) => pick(id, flow?.published_version ?? null)} />
      {flowId && flowVersion !== null && <StartNode flowId={flowId} version={flowVersion} value={startNodeId} disabled={disabled} onChange={(id) => setValue('startNodeId', id)} />}
    </div>
  )
}

function StartNode({ flowId, version, value, disabled, onChange }: { flowId: string; version: number; value: string; disabled: boolean; onChange: (id: string) => void }) {
  const graph = useQuery(flowVersionQuery(flowId, version))
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
