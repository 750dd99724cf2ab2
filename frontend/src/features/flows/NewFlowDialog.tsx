/** "New flow": a name, a description, and where it starts (blank, or one of the starters). */
import { zodResolver } from '@hookform/resolvers/zod'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useForm } from 'react-hook-form'
import { useNavigate } from 'react-router'
import { z } from 'zod'
import { TextArea } from '@/components/kit'
import { Modal } from '@/components/Modal'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { fieldAria } from '@/components/ui/fieldAria'
import { Input } from '@/components/ui/input'
import { ApiError, messageOf } from '@/lib/api'
import { notify } from '@/lib/toast'
import { flowKeys, flowsApi, startersQuery } from './api'

const newFlowSchema = z.object({
  name: z
    .string()
    .refine((v) => v.trim().length > 0, 'The name is required')
    .refine((v) => v.trim().length <= 80, 'The name must be 80 characters or less'),
  description: z.string().max(500, 'The description must be 500 characters or less'),
  starter: z.string(),
})
type NewFlowForm = z.infer<typeof newFlowSchema>

/** `starter`: the starter chosen where the dialog was opened ('' for blank). */
export function NewFlowDialog({ starter, onClose }: { starter: string; onClose: () => void }) {
  const starters = useQuery(startersQuery)
  const navigate = useNavigate()
  const client = useQueryClient()
  const chosen = starters.data?.find((s) => s.key === starter)
  const { register, handleSubmit, setError, formState: { errors } } = useForm<NewFlowForm>({
    resolver: zodResolver(newFlowSchema),
    defaultValues: { name: chosen?.name ?? '', description: chosen?.description ?? '', starter },
  })
  const create = useMutation({
    mutationFn: (form: NewFlowForm) => flowsApi.create({ name: form.name.trim(), description: form.description.trim(), starter: form.starter || null }),
    onSuccess: (result) => {
      void client.invalidateQueries({ queryKey: flowKeys.all })
      notify.success(`Flow "${result.data.name}" created`)
      navigate(`/dashboard/flows/${result.data.id}`)
    },
    onError: (error) => {
      for (const key of ['name', 'description'] as const) {
        const message = error instanceof ApiError ? error.field(key) : undefined
        if (message) setError(key, { message })
      }
      notify.error(messageOf(error, 'Failed to create the flow'))
    },
  })
  return (
    <Modal
      open
      onOpenChange={(open) => !open && !create.isPending && onClose()}
      title="New flow"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" form="new-flow-form" disabled={create.isPending}>
            {create.isPending && <Spinner className="h-4 w-4" />} Create flow
          </Button>
        </>
      }
    >
      <form id="new-flow-form" noValidate className="space-y-4" onSubmit={(e) => void handleSubmit((form) => create.mutate(form))(e)}>
        <Field id="new-flow-name" label="Name" error={errors.name?.message}>
          <Input id="new-flow-name" {...register('name')} maxLength={80} {...fieldAria('new-flow-name', errors.name?.message)} placeholder="Appointment confirmation" />
        </Field>
        <Field id="new-flow-description" label="Description (optional)" error={errors.description?.message}>
          <TextArea id="new-flow-description" rows={2} {...register('description')} maxLength={500} {...fieldAria('new-flow-description', errors.description?.message)} />
        </Field>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-700">Start from</legend>
          <label className="flex items-start gap-2 text-sm">
            <input type="radio" value="" {...register('starter')} className="mt-1" /> <span>Blank (one greeting)</span>
          </label>
          {(starters.data ?? []).map((s) => (
            <label key={s.key} className="flex items-start gap-2 text-sm">
              <input type="radio" value={s.key} {...register('starter')} className="mt-1" />
              <span>
                <span className="font-medium text-slate-900">{s.name}</span> <span className="text-slate-500">{s.description}</span>
              </span>
            </label>
          ))}
          {starters.isError && <p className="text-xs text-rose-600">{messageOf(starters.error, 'Failed to load the starter flows')}</p>}
        </fieldset>
      </form>
    </Modal>
  )
}
