/** The parts of the node form only some kinds have: an ask's retries and captures, an
 * action's type and settings. */
import { Plus, X } from 'lucide-react'
import { useFieldArray, useWatch, type UseFormReturn } from 'react-hook-form'
import { Select, TextArea } from '@/components/kit'
import { Button } from '@/components/ui/button'
import { Field } from '@/components/ui/field'
import { fieldAria } from '@/components/ui/fieldAria'
import { Input } from '@/components/ui/input'
import { ACTION_TYPES, CAPTURE_MAX, LINE_MAX, VARIABLE_TYPES, type NodeForm } from './schema'

export function AskFields({ form: { register, control, formState: { errors } } }: { form: UseFormReturn<NodeForm> }) {
  const captures = useFieldArray({ control, name: 'capture' })
  return (
    <>
      <div className="grid grid-cols-[1fr_6rem] gap-3">
        <Field id="node-retry" label="Retry line" error={errors.retry_text?.message}>
          <Input id="node-retry" {...register('retry_text')} maxLength={LINE_MAX} {...fieldAria('node-retry', errors.retry_text?.message)} />
        </Field>
        <Field id="node-tries" label="Tries" error={errors.max_tries?.message}>
          <Input id="node-tries" type="number" min={1} max={5} {...register('max_tries', { valueAsNumber: true })} {...fieldAria('node-tries', errors.max_tries?.message)} />
        </Field>
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-700">Capture from the answer</legend>
        {captures.fields.map((field, i) => {
          const error = errors.capture?.[i]?.variable?.message
          return (
            <div key={field.id} className="space-y-1">
              <div className="flex gap-2">
                <Input aria-label={`Capture ${i + 1} variable`} {...register(`capture.${i}.variable`)} placeholder="new_time" {...fieldAria(`capture-${i}`, error)} />
                <Select aria-label={`Capture ${i + 1} type`} className="w-28" {...register(`capture.${i}.type`)}>
                  {VARIABLE_TYPES.map((t) => (
                    <option key={t}>{t}</option>
                  ))}
                </Select>
                <Button type="button" variant="ghost" size="sm" aria-label={`Remove capture ${i + 1}`} onClick={() => captures.remove(i)}>
                  <X className="h-4 w-4" aria-hidden />
                </Button>
              </div>
              {error && (
                <p id={`capture-${i}-error`} role="alert" className="text-xs font-medium text-rose-600">
                  {error}
                </p>
              )}
            </div>
          )
        })}
        <Button type="button" variant="secondary" size="sm" disabled={captures.fields.length >= CAPTURE_MAX} onClick={() => captures.append({ variable: '', type: 'text' })}>
          <Plus className="h-4 w-4" aria-hidden /> Add capture
        </Button>
      </fieldset>
    </>
  )
}

const ACTION_LABELS = { transfer: 'Transfer', press_digits: 'Press keys', tool: 'Call a tool', end_call: 'End the call', voicemail: 'Leave a voicemail' }

export function ActionFields({ form: { register, control, formState: { errors } } }: { form: UseFormReturn<NodeForm> }) {
  const type = useWatch({ control, name: 'action_type' })
  return (
    <>
      <Field id="node-action" label="Action">
        <Select id="node-action" {...register('action_type')}>
          {ACTION_TYPES.map((t) => (
            <option key={t} value={t}>
              {ACTION_LABELS[t]}
            </option>
          ))}
        </Select>
      </Field>
      {type === 'transfer' && (
        <div className="grid grid-cols-2 gap-3">
          <Field id="node-number" label="Number (optional)" error={errors.number?.message} hint="Empty: the agent's transfer number.">
            <Input id="node-number" {...register('number')} placeholder="+15005550010" {...fieldAria('node-number', errors.number?.message, true)} />
          </Field>
          <Field id="node-department" label="Department (optional)" error={errors.department?.message}>
            <Input id="node-department" {...register('department')} maxLength={80} {...fieldAria('node-department', errors.department?.message)} />
          </Field>
          <Field id="node-mode" label="Mode">
            <Select id="node-mode" {...register('mode')}>
              <option value="cold">cold</option>
              <option value="warm">warm</option>
            </Select>
          </Field>
        </div>
      )}
      {type === 'press_digits' && (
        <Field id="node-digits" label="Keys" error={errors.digits?.message} hint="0-9, * and #; w waits half a second.">
          <Input id="node-digits" {...register('digits')} maxLength={64} {...fieldAria('node-digits', errors.digits?.message, true)} placeholder="1w2" />
        </Field>
      )}
      {type === 'tool' && (
        <>
          <Field id="node-tool" label="Tool (one of the agent's)" error={errors.tool?.message}>
            <Input id="node-tool" {...register('tool')} maxLength={64} {...fieldAria('node-tool', errors.tool?.message)} placeholder="check_slot" />
          </Field>
          <Field id="node-arguments" label="Arguments (JSON, optional)" error={errors.arguments?.message}>
            <TextArea id="node-arguments" rows={2} {...register('arguments')} {...fieldAria('node-arguments', errors.arguments?.message)} placeholder='{"day": "{{day}}"}' />
          </Field>
          <Field id="node-result" label="Keep the answer in (optional)" error={errors.result_variable?.message}>
            <Input id="node-result" {...register('result_variable')} {...fieldAria('node-result', errors.result_variable?.message)} placeholder="slot" />
          </Field>
        </>
      )}
    </>
  )
}
