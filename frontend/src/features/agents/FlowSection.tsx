import { useWatch, type UseFormReturn } from 'react-hook-form'
import { FlowPicker } from '@/components/flows/FlowPicker'
import { Card } from '@/components/ui/card'
import type { AgentForm } from './schema'

/** The conversation flow the agent's calls follow instead of improvising from the prompt
 * (docs/flows.md): the latest published version when each call is placed. */
export function FlowSection({ form: { control, setValue, formState: { errors } } }: { form: UseFormReturn<AgentForm> }) {
  const flowId = useWatch({ control, name: 'flow_id' })
  return (
    <Card className="space-y-3 p-5">
      <h2 className="text-lg font-semibold text-slate-900">Conversation flow</h2>
      <p className="text-xs text-slate-500">
        A flow draws the call: what the agent says, the answers it expects and where each leads. With one, the agent follows it step by step; with none, the prompt leads the call.
      </p>
      <FlowPicker id="agent-flow" value={flowId} onChange={(id) => setValue('flow_id', id, { shouldDirty: true })} error={errors.flow_id?.message} />
    </Card>
  )
}
