/** Edge forms: edit the selected edge, and "Add edge" (the keyboard's way to connect two nodes:
 * from, to, kind, label, and the answer's phrases and intent or the condition). */
import { zodResolver } from '@hookform/resolvers/zod'
import { Trash2 } from 'lucide-react'
import { useForm, useWatch, type UseFormReturn } from 'react-hook-form'
import { Select, TextArea } from '@/components/kit'
import { Button } from '@/components/ui/button'
import { Field } from '@/components/ui/field'
import { fieldAria } from '@/components/ui/fieldAria'
import { Input } from '@/components/ui/input'
import { defaultEdgeKind } from './graph'
import { ANSWER_INTENTS, CONDITION_OPS, EDGE_KINDS, edgeFormOf, edgeOf, edgeSchema, LABEL_MAX, type EdgeForm } from './schema'
import type { FlowEdge, FlowGraph } from './types'

export function EdgePanel({ edge, graph, onApply, onDelete }: { edge: FlowEdge; graph: FlowGraph; onApply: (edge: FlowEdge) => void; onDelete: () => void }) {
  const form = useForm<EdgeForm>({ resolver: zodResolver(edgeSchema), defaultValues: edgeFormOf(edge) })
  return (
    <form noValidate aria-label="Edge" className="space-y-4" onSubmit={(e) => void form.handleSubmit((values) => onApply({ ...edgeOf(values), id: edge.id }))(e)}>
      <h2 className="text-base font-semibold text-slate-900">
        Edge <span className="font-mono text-xs text-slate-500">{edge.id}</span>
      </h2>
      <EdgeFields form={form} graph={graph} prefix="edge" />
      <div className="flex justify-between gap-2">
        <Button type="button" variant="secondary" onClick={onDelete}>
          <Trash2 className="h-4 w-4 text-rose-600" aria-hidden /> Delete edge
        </Button>
        <Button type="submit">Apply</Button>
      </div>
    </form>
  )
}

export function AddEdgeForm({ graph, from, onAdd }: { graph: FlowGraph; from: string | null; onAdd: (edge: Omit<FlowEdge, 'id'>) => void }) {
  const source = from ?? graph.nodes[0]?.id ?? ''
  const form = useForm<EdgeForm>({ resolver: zodResolver(edgeSchema), defaultValues: edgeFormOf({ source, kind: defaultEdgeKind(graph, source) }) })
  return (
    <form
      noValidate
      aria-label="Add edge"
      className="space-y-4"
      onSubmit={(e) =>
        void form.handleSubmit((values) => onAdd(edgeOf(values)))(e)
      }
    >
      <h2 className="text-base font-semibold text-slate-900">Add edge</h2>
      <EdgeFields form={form} graph={graph} prefix="add-edge" />
      <div className="flex justify-end">
        <Button type="submit">Add edge</Button>
      </div>
    </form>
  )
}

function EdgeFields({ form, graph, prefix }: { form: UseFormReturn<EdgeForm>; graph: FlowGraph; prefix: string }) {
  const { register, control, formState: { errors } } = form
  const [kind, op] = useWatch({ control, name: ['kind', 'op'] })
  const id = (name: string) => `${prefix}-${name}`
  const nodes = graph.nodes.map((n) => (
    <option key={n.id} value={n.id}>
      {n.name} ({n.id})
    </option>
  ))
  return (
    <>
      <div className="grid grid-cols-2 gap-3">
        <Field id={id('source')} label="From" error={errors.source?.message}>
          <Select id={id('source')} {...register('source', { onChange: (e: { target: { value: string } }) => form.setValue('kind', defaultEdgeKind(graph, e.target.value)) })} {...fieldAria(id('source'), errors.source?.message)}>
            {nodes}
          </Select>
        </Field>
        <Field id={id('target')} label="To" error={errors.target?.message}>
          <Select id={id('target')} {...register('target')} {...fieldAria(id('target'), errors.target?.message)}>
            <option value="">Choose…</option>
            {nodes}
          </Select>
        </Field>
        <Field id={id('kind')} label="Kind">
          <Select id={id('kind')} {...register('kind')}>
            {EDGE_KINDS.map((k) => (
              <option key={k}>{k}</option>
            ))}
          </Select>
        </Field>
        <Field id={id('label')} label="Label" error={errors.label?.message}>
          <Input id={id('label')} {...register('label')} maxLength={LABEL_MAX} {...fieldAria(id('label'), errors.label?.message)} placeholder="Yes" />
        </Field>
      </div>
      {kind === 'answer' && (
        <>
          <Field id={id('phrases')} label="Example phrases (one a line)" error={errors.phrases?.message}>
            <TextArea id={id('phrases')} rows={3} {...register('phrases')} {...fieldAria(id('phrases'), errors.phrases?.message)} placeholder={'that works\nsounds good'} />
          </Field>
          <Field id={id('intent')} label="Or a built-in intent">
            <Select id={id('intent')} {...register('intent')}>
              <option value="">none</option>
              {ANSWER_INTENTS.map((i) => (
                <option key={i}>{i}</option>
              ))}
            </Select>
          </Field>
        </>
      )}
      {kind === 'condition' && (
        <div className="grid grid-cols-3 gap-2">
          <Field id={id('variable')} label="Variable" error={errors.variable?.message}>
            <Input id={id('variable')} {...register('variable')} {...fieldAria(id('variable'), errors.variable?.message)} placeholder="new_time" />
          </Field>
          <Field id={id('op')} label="Test">
            <Select id={id('op')} {...register('op')}>
              {CONDITION_OPS.map((o) => (
                <option key={o}>{o}</option>
              ))}
            </Select>
          </Field>
          {op !== 'is_set' && op !== 'is_not_set' && (
            <Field id={id('value')} label="Value">
              <Input id={id('value')} {...register('value')} />
            </Field>
          )}
        </div>
      )}
    </>
  )
}
