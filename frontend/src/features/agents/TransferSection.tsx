import { Plus, Trash2 } from 'lucide-react'
import { useFieldArray, type UseFormReturn } from 'react-hook-form'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { fieldAria } from '@/components/ui/fieldAria'
import { Input } from '@/components/ui/input'
import type { AgentForm } from './schema'
import { DEPARTMENTS_MAX, TRANSFER_MODES } from './transferSchema'

/** Where the agent hands the callee to a person when they ask for one: a number, or
 * departments the callee may name ("default" when they name none), cold or warm. */
export function TransferSection({ form: { control, register, formState: { errors } } }: { form: UseFormReturn<AgentForm> }) {
  const rows = useFieldArray({ control, name: 'transfer_list' })
  const listError = errors.transfer_list?.message ?? errors.transfer_list?.root?.message
  return (
    <Card className="space-y-4 p-5">
      <h2 className="text-lg font-semibold text-slate-900">Transfer</h2>
      <p className="text-xs text-slate-500">When the callee asks for a person, a human or a department, the agent says a short line and hands the call over. Leave both empty for no transfers.</p>
      <Field id="agent-transfer-number" label="Transfer number (optional)" error={errors.transfer_number?.message} hint="With its country code.">
        <Input id="agent-transfer-number" type="tel" {...register('transfer_number')} maxLength={40} {...fieldAria('agent-transfer-number', errors.transfer_number?.message, true)} placeholder="+15551234567" />
      </Field>
      <fieldset className="space-y-3">
        <legend className="text-sm font-medium text-slate-700">Departments (optional)</legend>
        {rows.fields.length === 0 && <p className="text-xs text-slate-500">None: every transfer goes to the number above. Name one "default" for a callee who names none.</p>}
        {rows.fields.map((row, index) => {
          const rowErrors = errors.transfer_list?.[index]
          return (
            <div key={row.id} className="grid gap-2 sm:grid-cols-[1fr_1fr_auto]" data-testid="transfer-department">
              <Field id={`department-${index}-name`} label="Department" error={rowErrors?.name?.message}>
                <Input id={`department-${index}-name`} {...register(`transfer_list.${index}.name`)} maxLength={64} {...fieldAria(`department-${index}-name`, rowErrors?.name?.message)} placeholder="sales" />
              </Field>
              <Field id={`department-${index}-number`} label="Number" error={rowErrors?.number?.message}>
                <Input id={`department-${index}-number`} type="tel" {...register(`transfer_list.${index}.number`)} maxLength={40} {...fieldAria(`department-${index}-number`, rowErrors?.number?.message)} placeholder="+15551234567" />
              </Field>
              <div className="flex items-end">
                <Button type="button" variant="ghost" size="icon" aria-label={`Remove department ${index + 1}`} onClick={() => rows.remove(index)}>
                  <Trash2 className="h-4 w-4 text-rose-600" aria-hidden />
                </Button>
              </div>
            </div>
          )
        })}
        {listError && (
          <p role="alert" className="text-xs font-medium text-rose-600">
            {listError}
          </p>
        )}
        <Button type="button" variant="secondary" size="sm" disabled={rows.fields.length >= DEPARTMENTS_MAX} onClick={() => rows.append({ name: rows.fields.length ? '' : 'default', number: '' })}>
          <Plus className="h-4 w-4" aria-hidden /> Add department
        </Button>
      </fieldset>
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">How</legend>
        <div className="mt-2 flex flex-wrap gap-4">
          {TRANSFER_MODES.map((choice) => (
            <label key={choice.value} className="flex items-center gap-2 text-sm text-slate-700">
              <input type="radio" value={choice.value} {...register('transfer_mode')} className="accent-indigo-600" />
              {choice.label}
            </label>
          ))}
        </div>
      </fieldset>
    </Card>
  )
}
