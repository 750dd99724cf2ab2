/** Add or edit one custom tool of an agent: what the model reads (name, description, JSON-schema
 * parameters), the endpoint (method, URL, headers whose values are secrets: a kept one shows
 * masked and stays unless a new value is typed), the timeout and the waiting line. */
import { useMutation } from '@tanstack/react-query'
import { Plus, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { TOOL_METHODS, toolsApi, type AgentTool, type ToolMethod } from '@/components/agents/tools'
import { Select, TextArea } from '@/components/kit'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { fieldAria } from '@/components/ui/fieldAria'
import { Input } from '@/components/ui/input'
import { ApiError, messageOf } from '@/lib/api'
import { notify } from '@/lib/toast'
import { bodyOfDraft, checkDraft, draftOf, serverErrors, type DraftErrors, type HeaderDraft, type ToolDraft } from './toolDraft'

export function AgentToolForm({ agentId, tool, onDone }: { agentId: string; tool: AgentTool | null; onDone: (saved: boolean) => void }) {
  const [draft, setDraft] = useState<ToolDraft>(() => draftOf(tool))
  const [errors, setErrors] = useState<DraftErrors>({})
  const set = <K extends keyof ToolDraft>(key: K, value: ToolDraft[K]) => setDraft((d) => ({ ...d, [key]: value }))
  const save = useMutation({
    mutationFn: () => (tool ? toolsApi.replace(agentId, tool.id, bodyOfDraft(draft)) : toolsApi.add(agentId, bodyOfDraft(draft))),
    onSuccess: () => {
      notify.success(tool ? 'Tool saved' : 'Tool added')
      onDone(true)
    },
    onError: (error) => {
      if (error instanceof ApiError) setErrors(serverErrors(error.errors))
      notify.error(messageOf(error, 'Failed to save the tool'))
    },
  })
  const submit = () => {
    const found = checkDraft(draft)
    setErrors(found)
    if (Object.keys(found).length === 0) save.mutate()
  }
  const text = (key: 'name' | 'description' | 'url' | 'waitingLine' | 'timeout', label: string, extra: { hint?: string; placeholder?: string } = {}) => (
    <Field id={`tool-${key}`} label={label} error={errors[key]} hint={extra.hint}>
      <Input id={`tool-${key}`} value={draft[key]} onChange={(e) => set(key, e.target.value)} placeholder={extra.placeholder} {...fieldAria(`tool-${key}`, errors[key], Boolean(extra.hint))} />
    </Field>
  )
  return (
    <div role="group" aria-label={tool ? `Edit ${tool.name}` : 'New tool'} className="space-y-4 rounded-lg border border-slate-200 bg-slate-50/60 p-4">
      {text('name', 'Tool name', { hint: 'What the model calls: letters, digits, _ and -.', placeholder: 'check_calendar' })}
      {text('description', 'Description', { hint: 'When the agent should use it (the model reads this).', placeholder: 'Whether a day has a free appointment.' })}
      <Field id="tool-parameters" label="Parameters (JSON Schema)" error={errors.parameters}>
        <TextArea id="tool-parameters" rows={5} className="font-mono text-xs" value={draft.parameters} onChange={(e) => set('parameters', e.target.value)} {...fieldAria('tool-parameters', errors.parameters)} />
      </Field>
      <div className="grid gap-3 sm:grid-cols-[8rem_1fr]">
        <Field id="tool-method" label="Method">
          <Select id="tool-method" value={draft.method} onChange={(e) => set('method', e.target.value as ToolMethod)}>
            {TOOL_METHODS.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </Select>
        </Field>
        {text('url', 'URL', { placeholder: 'https://api.example.com/calendar' })}
      </div>
      <HeaderRows headers={draft.headers} onChange={(headers) => set('headers', headers)} error={errors.headers} />
      <Field id="tool-body" label="Body template (optional JSON)" error={errors.body} hint="{{input.NAME}} takes an argument, {{NAME}} a call variable. Empty: the arguments are the body (the query for GET and DELETE).">
        <TextArea id="tool-body" rows={3} className="font-mono text-xs" value={draft.body} onChange={(e) => set('body', e.target.value)} {...fieldAria('tool-body', errors.body, true)} />
      </Field>
      <div className="grid gap-3 sm:grid-cols-[8rem_1fr]">
        {text('timeout', 'Timeout (s)')}
        {text('waitingLine', 'Waiting line', { hint: 'Said at once while the tool runs.' })}
      </div>
      <div className="flex justify-end gap-2">
        <Button type="button" variant="secondary" onClick={() => onDone(false)}>
          Cancel
        </Button>
        <Button type="button" onClick={submit} disabled={save.isPending}>
          {save.isPending && <Spinner className="h-4 w-4" />} {tool ? 'Save tool' : 'Add tool'}
        </Button>
      </div>
    </div>
  )
}

function HeaderRows({ headers, onChange, error }: { headers: HeaderDraft[]; onChange: (headers: HeaderDraft[]) => void; error?: string }) {
  const change = (i: number, patch: Partial<HeaderDraft>) => onChange(headers.map((h, j) => (j === i ? { ...h, ...patch } : h)))
  return (
    <fieldset className="space-y-2" aria-describedby={error ? 'tool-headers-error' : undefined}>
      <legend className="text-sm font-medium text-slate-700">Headers</legend>
      <p className="text-xs text-slate-500">Values are secrets: kept encrypted and never shown again. Leave a kept value empty to keep it.</p>
      {headers.map((h, i) => (
        <div key={i} className="flex gap-2">
          <Input aria-label={`Header ${i + 1} name`} value={h.name} disabled={h.kept} onChange={(e) => change(i, { name: e.target.value })} placeholder="Authorization" />
          <Input aria-label={`Header ${i + 1} value`} type="password" autoComplete="off" value={h.value} onChange={(e) => change(i, { value: e.target.value })} placeholder={h.kept ? '•••••••• (kept)' : 'Bearer …'} />
          <Button type="button" variant="ghost" size="sm" aria-label={`Remove header ${h.name || i + 1}`} onClick={() => onChange(headers.filter((_, j) => j !== i))}>
            <Trash2 className="h-4 w-4" aria-hidden />
          </Button>
        </div>
      ))}
      <Button type="button" variant="secondary" size="sm" onClick={() => onChange([...headers, { name: '', value: '', kept: false }])}>
        <Plus className="h-4 w-4" aria-hidden /> Add header
      </Button>
      {error && (
        <p id="tool-headers-error" role="alert" className="text-xs font-medium text-rose-600">
          {error}
        </p>
      )}
    </fieldset>
  )
}
