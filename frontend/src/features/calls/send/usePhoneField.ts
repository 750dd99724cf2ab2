/** Send Call's number: its rule and its tidying, both read in the server's default region (a
 * number without "+"), with the phone rules loaded on first use. */
import type { UseFormReturn } from 'react-hook-form'
import { usePhoneRegion } from '@/lib/clientConfig'
import { loadPhone, type SendCallForm } from './form'

export function usePhoneField({ setValue, formState: { errors } }: UseFormReturn<SendCallForm>) {
  const region = usePhoneRegion()
  return {
    /** The number's rule: a number without "+" is read in the server's default region. */
    validate: async (value: string) => (await loadPhone()).sendCallPhoneProblem(value, region) ?? true,
    /** Show the number as it will be dialled: "(555) 123-0000" becomes "+15551230000". */
    tidy: async (value: string) => {
      const tidied = (await loadPhone()).tidyPhone(value, region)
      if (tidied && tidied !== value) setValue('phone', tidied, { shouldValidate: Boolean(errors.phone) })
      return tidied ?? value
    },
  }
}
