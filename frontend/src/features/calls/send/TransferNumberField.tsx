/** Send Call's transfer number: where the agent hands the callee to a person when they ask for
 * one (docs/actions.md, "Transfer"); from an agent, the agent's, which this one replaces. */
import type { UseFormReturn } from 'react-hook-form'
import { Field } from '@/components/ui/field'
import { fieldAria } from '@/components/ui/fieldAria'
import { Input } from '@/components/ui/input'
import { RULES, type SendCallForm } from './form'

export function TransferNumberField({ form, disabled }: { form: UseFormReturn<SendCallForm>; disabled: boolean }) {
  const error = form.formState.errors.transferNumber?.message
  return (
    <Field id="send-transfer-number" label="Transfer number (optional)" error={error} hint="When the callee asks for a person, the agent connects them here.">
      <Input id="send-transfer-number" type="tel" {...form.register('transferNumber', RULES.transferNumber)} disabled={disabled} maxLength={40} {...fieldAria('send-transfer-number', error, true)} placeholder="+15551234567" />
    </Field>
  )
}
