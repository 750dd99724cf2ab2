/** The agent editor's Keypad section: the keys its calls press when answered (Bland's
 * precall_dtmf_sequence), checked as the server checks them. */
import { useWatch, type UseFormReturn } from 'react-hook-form'
import { Card } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { fieldAria } from '@/components/ui/fieldAria'
import { Input } from '@/components/ui/input'
import { dtmfKeys, type AgentForm } from './schema'

export function KeypadSection({ form: { register, control, formState: { errors } } }: { form: UseFormReturn<AgentForm> }) {
  const sequence = useWatch({ control, name: 'precall_dtmf_sequence' })
  const keys = dtmfKeys(sequence)
  const error = errors.precall_dtmf_sequence?.message
  return (
    <Card className="space-y-4 p-5">
      <h2 className="text-lg font-semibold text-slate-900">Keypad</h2>
      <p className="text-sm text-slate-600">
        The agent presses keys when a phone menu asks (“for sales, press 1”) and hears the keys the callee presses. To get through a known menu at once, give the keys here.
      </p>
      <Field
        id="agent-precall-dtmf"
        label="Keys to press when answered (optional)"
        error={error}
        hint="Pressed as the call is answered, before the agent speaks: 0-9, * and #, and w for a half-second pause (64 at most)."
      >
        <Input id="agent-precall-dtmf" {...register('precall_dtmf_sequence')} maxLength={200} {...fieldAria('agent-precall-dtmf', error, true)} placeholder="1w2" className="font-mono" />
      </Field>
      {keys && !error && (
        <p data-testid="agent-precall-keys" className="text-xs text-slate-500">
          Presses {keys.split('').map((key) => (key === 'w' ? '(pause)' : key)).join(' ')}
        </p>
      )}
    </Card>
  )
}
