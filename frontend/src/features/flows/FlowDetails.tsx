/** With nothing selected, the side panel edits the flow itself: its name, its description, and
 * the variables the call gives it (`{{name}}` in lines; an ask's captures add their own). */
import { zodResolver } from '@hookform/resolvers/zod'
import { Plus, X } from 'lucide-react'
import { useFieldArray, useForm } from 'react-hook-form'
import { z } from 'zod'
import { Select, TextArea } from '@/components/kit'
import { Button } from '@/components/ui/button'
import { Field } from '@/components/ui/field'
import { fieldAria } from '@/components/ui/fieldAria'
import { Input } from '@/components/ui/input'
import type { FlowDoc } from './graph'
import { NAME_MAX, VARIABLE_MESSAGE, VARIABLE_NAME, VARIABLE_TYPES } from './schema'

const detailsSchema = z.object({
  name: z
    .string()
    .refine((v) => v.trim().length > 0, 'The name is required')
    .refine((v) => v.trim().length <= NAME_MAX, `The name must be ${NAME_MAX} characters or less`),
  description: z.string().max(500, 'The description must be 500 characters or less'),
  variables: z
    .array(z.object({ name: z.string().regex(VARIABLE_NAME, VARIABLE_MESSAGE), type: z.enum(VARIABLE_TYPES), description: z.string().max(200, 'At most 200 characters') }))
    .max(50, 'At most 50 variables'),
})
type DetailsForm = z.infer<typeof detailsSchema>

export function FlowDetails({ doc, onApply }: { doc: FlowDoc; onApply: (doc: FlowDoc) => void }) {
  const { register, control, handleSubmit, formState: { errors } } = useForm<DetailsForm>({
    resolver: zodResolver(detailsSchema),
    defaultValues: {
      name: doc.name,
      description: doc.description,
      variables: (doc.graph.variables ?? []).map((v) => ({ name: v.name, type: v.type ?? 'text', description: v.description ?? '' })),
    },
  })
  const variables = useFieldArray({ control, name: 'variables' })
  const apply = (form: DetailsForm) => onApply({ name: form.name.trim(), description: form.description.trim(), graph: { ...doc.graph, variables: form.variables } })
  return (
    <form noValidate aria-label="Flow details" className="space-y-4" onSubmit={(e) => void handleSubmit(apply)(e)}>
      <h2 className="text-base font-semibold text-slate-900">Flow</h2>
      <p className="text-xs text-slate-500">Select a node or an edge to edit it (on the canvas, or from the node list).</p>
      <Field id="flow-name" label="Name" error={errors.name?.message}>
        <Input id="flow-name" {...register('name')} maxLength={NAME_MAX} {...fieldAria('flow-name', errors.name?.message)} />
      </Field>
      <Field id="flow-description" label="Description" error={errors.description?.message}>
        <TextArea id="flow-description" rows={2} maxLength={500} {...register('description')} {...fieldAria('flow-description', errors.description?.message)} />
      </Field>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-700">Variables the call gives</legend>
        {variables.fields.map((field, i) => {
          const error = errors.variables?.[i]?.name?.message
          return (
            <div key={field.id} className="space-y-1">
              <div className="flex gap-2">
                <Input aria-label={`Variable ${i + 1} name`} {...register(`variables.${i}.name`)} placeholder="name" {...fieldAria(`variable-${i}`, error)} />
                <Select aria-label={`Variable ${i + 1} type`} className="w-28" {...register(`variables.${i}.type`)}>
                  {VARIABLE_TYPES.map((t) => (
                    <option key={t}>{t}</option>
                  ))}
                </Select>
                <Button type="button" variant="ghost" size="sm" aria-label={`Remove variable ${i + 1}`} onClick={() => variables.remove(i)}>
                  <X className="h-4 w-4" aria-hidden />
                </Button>
              </div>
              {error && (
                <p id={`variable-${i}-error`} role="alert" className="text-xs font-medium text-rose-600">
                  {error}
                </p>
              )}
            </div>
          )
        })}
        <Button type="button" variant="secondary" size="sm" onClick={() => variables.append({ name: '', type: 'text', description: '' })}>
          <Plus className="h-4 w-4" aria-hidden /> Add variable
        </Button>
      </fieldset>
      <div className="flex justify-end">
        <Button type="submit">Apply</Button>
      </div>
    </form>
  )
}
