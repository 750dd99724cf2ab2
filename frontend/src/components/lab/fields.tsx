/** The scenario form's list pieces: texts in order (add, remove, move up and down) and
 * name = value rows. Each control is labelled; its problem shows under it. */
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react'
import type { ReactNode } from 'react'
import { Button } from '@/components/ui/button'
import { fieldAria } from '@/components/ui/fieldAria'
import { Input } from '@/components/ui/input'
import type { Pair, Problems } from './draft'

export function Problem({ id, message }: { id: string; message?: string }) {
  if (!message) return null
  return (
    <p id={`${id}-error`} role="alert" className="text-xs font-medium text-rose-600">
      {message}
    </p>
  )
}

/** A fieldset with its legend, its rows and an Add button under them. */
export function Rows({ legend, hint, onAdd, addLabel, full, problem, problemId, children }: { legend: string; hint?: string; onAdd: () => void; addLabel: string; full: boolean; problem?: string; problemId: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      {hint && <p className="text-xs text-slate-500">{hint}</p>}
      {children}
      <Problem id={problemId} message={problem} />
      <Button type="button" variant="secondary" size="sm" onClick={onAdd} disabled={full}>
        <Plus className="h-4 w-4" aria-hidden /> {addLabel}
      </Button>
    </fieldset>
  )
}

const move = <T,>(items: T[], from: number, to: number): T[] => {
  const next = [...items]
  const [item] = next.splice(from, 1)
  next.splice(to, 0, item as T)
  return next
}

/** Texts in order: each its own input, removable and movable. `name` words each ("Line 1"). */
export function TextList({ id, legend, name, hint, items, max, maxLength, problems, problemKey, onChange, placeholder }: { id: string; legend: string; name: string; hint?: string; items: string[]; max: number; maxLength: number; problems: Problems; problemKey: string; onChange: (items: string[]) => void; placeholder?: string }) {
  return (
    <Rows legend={legend} hint={hint} addLabel={`Add ${name.toLowerCase()}`} onAdd={() => onChange([...items, ''])} full={items.length >= max} problem={problems[problemKey]} problemId={`${id}-list`}>
      {items.length > 0 && (
        <ol className="space-y-2">
          {items.map((item, i) => {
            const key = `${problemKey}.${i}`
            const inputId = `${id}-${i}`
            return (
              <li key={i} className="space-y-1">
                <div className="flex items-center gap-1">
                  <Input id={inputId} aria-label={`${name} ${i + 1}`} value={item} maxLength={maxLength} placeholder={placeholder} onChange={(e) => onChange(items.map((old, j) => (j === i ? e.target.value : old)))} {...fieldAria(inputId, problems[key])} />
                  <Button type="button" variant="ghost" size="icon" aria-label={`Move ${name.toLowerCase()} ${i + 1} up`} disabled={i === 0} onClick={() => onChange(move(items, i, i - 1))}>
                    <ArrowUp className="h-4 w-4" aria-hidden />
                  </Button>
                  <Button type="button" variant="ghost" size="icon" aria-label={`Move ${name.toLowerCase()} ${i + 1} down`} disabled={i === items.length - 1} onClick={() => onChange(move(items, i, i + 1))}>
                    <ArrowDown className="h-4 w-4" aria-hidden />
                  </Button>
                  <Button type="button" variant="ghost" size="icon" aria-label={`Remove ${name.toLowerCase()} ${i + 1}`} onClick={() => onChange(items.filter((_, j) => j !== i))}>
                    <Trash2 className="h-4 w-4 text-rose-600" aria-hidden />
                  </Button>
                </div>
                <Problem id={inputId} message={problems[key]} />
              </li>
            )
          })}
        </ol>
      )}
    </Rows>
  )
}

/** name = value rows (a scenario's variables, an expectation's values). */
export function PairRows({ id, legend, hint, rows, max, problems, problemKey, onChange }: { id: string; legend: string; hint?: string; rows: Pair[]; max: number; problems: Problems; problemKey: string; onChange: (rows: Pair[]) => void }) {
  const set = (i: number, patch: Partial<Pair>) => onChange(rows.map((row, j) => (j === i ? { ...row, ...patch } : row)))
  return (
    <Rows legend={legend} hint={hint} addLabel={`Add ${legend.toLowerCase().replace(/s$/, '')}`} onAdd={() => onChange([...rows, { name: '', value: '' }])} full={rows.length >= max} problem={problems[problemKey]} problemId={`${id}-rows`}>
      {rows.map((row, i) => {
        const key = `${problemKey}.${i}`
        return (
          <div key={i} className="space-y-1">
            <div className="flex items-center gap-2">
              <Input id={`${id}-${i}-name`} aria-label={`${legend} ${i + 1} name`} value={row.name} maxLength={64} placeholder="name" onChange={(e) => set(i, { name: e.target.value })} {...fieldAria(`${id}-${i}-name`, problems[key])} />
              <span aria-hidden className="text-slate-400">
                =
              </span>
              <Input aria-label={`${legend} ${i + 1} value`} value={row.value} maxLength={500} placeholder="value" onChange={(e) => set(i, { value: e.target.value })} />
              <Button type="button" variant="ghost" size="icon" aria-label={`Remove ${legend.toLowerCase()} ${i + 1}`} onClick={() => onChange(rows.filter((_, j) => j !== i))}>
                <Trash2 className="h-4 w-4 text-rose-600" aria-hidden />
              </Button>
            </div>
            <Problem id={`${id}-${i}-name`} message={problems[key]} />
          </div>
        )
      })}
    </Rows>
  )
}
