/** The selected node's form: its name and what it says or does, checked as the server checks
 * it; Apply records one undo step. Also: make it the start, delete it. */
import { zodResolver } from '@hookform/resolvers/zod'
import { Play, Trash2 } from 'lucide-react'
import { useForm, useWatch, type UseFormReturn } from 'react-hook-form'
import { Select, TextArea } from '@/components/kit'
import { Button } from '@/components/ui/button'
import { Field } from '@/components/ui/field'
import { fieldAria } from '@/components/ui/fieldAria'
import { Input } from '@/components/ui/input'
import { KIND_LOOK } from './look'
import { ActionFields, AskFields } from './NodeFields'
import { GLOBAL_INTENTS, LINE_MAX, NAME_MAX, nodeFormOf, nodeOf, nodeSchema, THEN, type NodeForm } from './schema'
import type { FlowNode } from './types'

interface NodePanelProps {
  node: FlowNode
  isStart: boolean
  onApply: (node: FlowNode) => void
  onMakeStart: () => void
  onDelete: () => void
}

export function NodePanel({ node, isStart, onApply, onMakeStart, onDelete }: NodePanelProps) {
  const form = useForm<NodeForm>({ resolver: zodResolver(nodeSchema), defaultValues: nodeFormOf(node) })
  const { register, handleSubmit, control, formState: { errors } } = form
  const actionType = useWatch({ control, name: 'action_type' })
  const says = node.kind === 'say' || node.kind === 'ask' || node.kind === 'global' || (node.kind === 'action' && actionType !== 'press_digits' && actionType !== 'tool')
  return (
    <form noValidate aria-label="Node" className="space-y-4" onSubmit={(e) => void handleSubmit((values) => onApply(nodeOf(values, node)))(e)}>
      <div className="flex items-center justify-between">
        <h2 className="text-base font-semibold text-slate-900">
          {KIND_LOOK[node.kind].label} node <span className="font-mono text-xs text-slate-500">{node.id}</span>
        </h2>
        {isStart ? (
          <span className="text-xs font-semibold text-slate-600">Start node</span>
        ) : (
          <Button type="button" variant="secondary" size="sm" onClick={onMakeStart}>
            <Play className="h-3.5 w-3.5" aria-hidden /> Make start
          </Button>
        )}
      </div>
      <Field id="node-name" label="Name" error={errors.name?.message}>
        <Input id="node-name" {...register('name')} maxLength={NAME_MAX} {...fieldAria('node-name', errors.name?.message)} />
      </Field>
      {node.kind === 'global' && <GlobalFields form={form} />}
      {node.kind === 'action' && <ActionFields form={form} />}
      {says && (
        <Field id="node-text" label={node.kind === 'ask' ? 'Question' : 'Line'} error={errors.text?.message} hint="Write {{name}} for a variable.">
          <TextArea id="node-text" rows={3} {...register('text')} maxLength={LINE_MAX} {...fieldAria('node-text', errors.text?.message, true)} />
        </Field>
      )}
      {(node.kind === 'say' || node.kind === 'ask') && (
        <Field id="node-instruction" label="Instruction for an LLM (optional)" error={errors.instruction?.message} hint="With a language model: what to say, in its own words.">
          <TextArea id="node-instruction" rows={2} {...register('instruction')} maxLength={LINE_MAX} {...fieldAria('node-instruction', errors.instruction?.message, true)} />
        </Field>
      )}
      {node.kind === 'ask' && <AskFields form={form} />}
      <div className="flex justify-between gap-2">
        <Button type="button" variant="secondary" onClick={onDelete}>
          <Trash2 className="h-4 w-4 text-rose-600" aria-hidden /> Delete node
        </Button>
        <Button type="submit">Apply</Button>
      </div>
    </form>
  )
}

function GlobalFields({ form: { register } }: { form: UseFormReturn<NodeForm> }) {
  return (
    <div className="grid grid-cols-2 gap-3">
      <Field id="node-intent" label="When the callee">
        <Select id="node-intent" {...register('intent')}>
          {GLOBAL_INTENTS.map((intent) => (
            <option key={intent} value={intent}>
              {{ person: 'asks for a person', opt_out: 'opts out', robot: 'asks if this is a robot', busy: 'is busy now' }[intent]}
            </option>
          ))}
        </Select>
      </Field>
      <Field id="node-then" label="Then">
        <Select id="node-then" {...register('then')}>
          {THEN.map((then) => (
            <option key={then} value={then}>
              {{ return: 'return to where it was', end: 'end the call', goto: 'follow its edge' }[then]}
            </option>
          ))}
        </Select>
      </Field>
    </div>
  )
}
