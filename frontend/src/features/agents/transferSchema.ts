/** The agent editor's Transfer section as form values: one number, or departments (name and
 * number rows; the API keeps them as an object, "default" the one used when none is named), and
 * cold or warm (docs/actions.md, "Transfer"). The server checks every number (kit.phone). */
import { z } from 'zod'
import type { Agent } from '@/components/agents/api'

export const TRANSFER_MODES = [
  { value: 'cold', label: 'Cold: connect at once' },
  { value: 'warm', label: 'Warm: the person hears a summary first' },
] as const
export const DEPARTMENTS_MAX = 20
const NUMBER = /^\+?[0-9 ().-]{7,40}$/
const NUMBER_MESSAGE = 'Enter the number with its country code, e.g. "+15551234567".'

export const transferFields = {
  transfer_number: z.string().refine((v) => v.trim() === '' || NUMBER.test(v.trim()), NUMBER_MESSAGE),
  transfer_list: z
    .array(
      z.object({
        name: z.string().refine((v) => v.trim().length > 0 && v.trim().length <= 64, "Each department's name must be 1 to 64 characters long."),
        number: z.string().refine((v) => NUMBER.test(v.trim()), NUMBER_MESSAGE),
      }),
    )
    .max(DEPARTMENTS_MAX, `At most ${DEPARTMENTS_MAX} departments may be listed.`)
    .superRefine((rows, ctx) => {
      const seen = new Set<string>()
      rows.forEach((row, index) => {
        const name = row.name.trim().toLowerCase()
        if (name && seen.has(name)) ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `The department "${row.name.trim()}" is listed twice.` })
        seen.add(name)
      })
    }),
  transfer_mode: z.enum(['cold', 'warm']),
}

interface TransferValues {
  transfer_number: string
  transfer_list: { name: string; number: string }[]
  transfer_mode: 'cold' | 'warm'
}

export function transferForm(agent: Agent | null): TransferValues {
  return {
    transfer_number: agent?.transfer_number ?? '',
    transfer_list: Object.entries(agent?.transfer_list ?? {}).map(([name, number]) => ({ name, number })),
    transfer_mode: agent?.transfer_mode ?? 'cold',
  }
}

export function transferBody(form: TransferValues) {
  const rows = form.transfer_list.filter((row) => row.name.trim() || row.number.trim())
  return {
    transfer_number: form.transfer_number.trim() || null,
    transfer_list: rows.length ? Object.fromEntries(rows.map((row) => [row.name.trim(), row.number.trim()])) : null,
    transfer_mode: form.transfer_mode,
  }
}
