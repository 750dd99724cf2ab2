/** Webhook endpoints: add or edit (URL, description, events, enabled), the secret shown once,
 * an enable switch per endpoint, delete. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { AlertTriangle, Pencil, Plus, Trash2 } from 'lucide-react'
import { useState, type Dispatch, type FormEvent, type SetStateAction } from 'react'
import { TD } from '@/components/kit'
import { Modal } from '@/components/Modal'
import { Button } from '@/components/ui/button'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { ApiError, messageOf } from '@/lib/api'
import { formatDateTime } from '@/lib/format'
import { notify } from '@/lib/toast'
import { developersApi, devKeys, endpointsQuery, EVENTS, type Endpoint } from './api'
import { ConfirmDialog, Section, Table } from '@/components/panels'
import { SecretOnce } from './parts'

interface Draft {
  url: string
  description: string
  events: string[]
  enabled: boolean
}

const EMPTY: Draft = { url: '', description: '', events: [...EVENTS], enabled: true }
type Errors = Partial<Record<'url' | 'description' | 'events' | 'form', string>>

function check(draft: Draft): Errors {
  const errors: Errors = {}
  if (!/^https?:\/\/[^\s/]+/i.test(draft.url.trim())) errors.url = 'Enter an http:// or https:// URL'
  if (draft.events.length === 0) errors.events = 'Choose at least one event'
  return errors
}

export function Toggle({ checked, onChange, label, disabled }: { checked: boolean; onChange: (v: boolean) => void; label: string; disabled?: boolean }) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      disabled={disabled}
      onClick={() => onChange(!checked)}
      className={`relative inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full transition-colors disabled:opacity-50 ${checked ? 'bg-indigo-600' : 'bg-slate-300'}`}
    >
      <span className={`inline-block h-5 w-5 transform rounded-full bg-white shadow transition-transform ${checked ? 'translate-x-5' : 'translate-x-0.5'}`} />
    </button>
  )
}

export function Endpoints() {
  const endpoints = useQuery(endpointsQuery())
  const client = useQueryClient()
  const [editing, setEditing] = useState<Endpoint | 'new' | null>(null)
  const [draft, setDraft] = useState<Draft>(EMPTY)
  const [errors, setErrors] = useState<Errors>({})
  const [secret, setSecret] = useState<string | null>(null)
  // Said when the saved URL is on a private address (and why those are allowed here).
  const [notice, setNotice] = useState<string | null>(null)
  const [deleting, setDeleting] = useState<Endpoint | null>(null)
  const rows = endpoints.data?.data ?? []
  const refresh = () => client.invalidateQueries({ queryKey: devKeys.endpoints })

  const fail = (error: unknown) => {
    if (error instanceof ApiError && Object.keys(error.errors).length > 0) {
      setErrors({ url: error.field('url'), description: error.field('description'), events: error.field('events'), form: error.field('url') ? undefined : error.message })
    } else setErrors({ form: messageOf(error, 'Failed to save the endpoint') })
  }

  const save = useMutation({
    mutationFn: async (d: Draft) => {
      const body = { url: d.url.trim(), description: d.description.trim(), events: d.events, enabled: d.enabled }
      if (editing === 'new') {
        const created = await developersApi.createEndpoint(body)
        return { secret: created.secret, notice: created.notice ?? null }
      }
      const updated = editing ? await developersApi.updateEndpoint(editing.id, body) : null
      return { secret: null, notice: updated?.notice ?? null }
    },
    onSuccess: (res) => {
      void refresh()
      if (res.secret) {
        setSecret(res.secret)
        setNotice(res.notice)
      } else {
        notify.success('Endpoint saved')
        if (res.notice) notify.warning(res.notice, 'A private address')
        close()
      }
    },
    onError: fail,
  })

  const toggle = useMutation({
    mutationFn: ({ endpoint, enabled }: { endpoint: Endpoint; enabled: boolean }) => developersApi.updateEndpoint(endpoint.id, { enabled }),
    onSuccess: (res) => {
      void refresh()
      notify.success(res.data.enabled ? 'Endpoint enabled' : 'Endpoint disabled')
    },
    onError: (error) => notify.error(messageOf(error, 'Failed to save the endpoint')),
  })

  const remove = useMutation({
    mutationFn: (endpoint: Endpoint) => developersApi.deleteEndpoint(endpoint.id),
    onSuccess: () => {
      setDeleting(null)
      notify.success('Endpoint deleted')
      void refresh()
      void client.invalidateQueries({ queryKey: devKeys.deliveries })
    },
    onError: (error) => notify.error(messageOf(error, 'Failed to delete the endpoint')),
  })

  const open = (endpoint: Endpoint | 'new') => {
    setEditing(endpoint)
    setErrors({})
    setSecret(null)
    setNotice(null)
    setDraft(endpoint === 'new' ? EMPTY : { url: endpoint.url, description: endpoint.description, events: endpoint.events, enabled: endpoint.enabled })
  }
  const close = () => {
    setEditing(null)
    setSecret(null)
    setNotice(null)
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const found = check(draft)
    setErrors(found)
    if (Object.keys(found).length === 0) save.mutate(draft)
  }

  return (
    <Section
      id="webhook-endpoints"
      title="Webhook endpoints"
      description="Where we POST your calls' events, signed with each endpoint's own secret."
      action={
        <Button onClick={() => open('new')}>
          <Plus className="h-4 w-4" aria-hidden /> Add endpoint
        </Button>
      }
    >
      <Table testId="endpoints-table" className="min-w-[720px]" labels={['URL', 'Events', 'Created', 'Enabled', '']} skeletonRows={2} loading={endpoints.isPending} error={endpoints.isError ? 'Failed to load webhook endpoints' : null} empty="No endpoints yet. Add one to receive your calls' events.">
        {rows.map((endpoint) => (
          <EndpointRow key={endpoint.id} endpoint={endpoint} toggling={toggle.isPending} onToggle={(enabled) => toggle.mutate({ endpoint, enabled })} onEdit={() => open(endpoint)} onDelete={() => setDeleting(endpoint)} />
        ))}
      </Table>

      <EndpointDialog editing={editing} secret={secret} notice={notice} draft={draft} onDraft={setDraft} errors={errors} saving={save.isPending} onSubmit={submit} onClose={close} />

      <ConfirmDialog
        open={deleting !== null}
        title="Delete this endpoint?"
        message={
          <p>
            <span className="font-mono">{deleting?.url}</span> will get no more events, and its delivery log is deleted with it.
          </p>
        }
        confirm="Delete endpoint"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </Section>
  )
}

/** Adding or editing an endpoint; once added, its signing secret, shown this once. */
function EndpointDialog({ editing, secret, notice, draft, onDraft, errors, saving, onSubmit, onClose }: { editing: Endpoint | 'new' | null; secret: string | null; notice: string | null; draft: Draft; onDraft: Dispatch<SetStateAction<Draft>>; errors: Errors; saving: boolean; onSubmit: (e: FormEvent) => void; onClose: () => void }) {
  return (
    <Modal
      open={editing !== null}
      onOpenChange={(o) => !o && onClose()}
      title={secret ? 'Endpoint added' : editing === 'new' ? 'Add a webhook endpoint' : 'Edit the webhook endpoint'}
      footer={
        secret ? (
          <Button onClick={onClose}>Done</Button>
        ) : (
          <>
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" form="endpoint-form" disabled={saving}>
              {editing === 'new' ? 'Add endpoint' : 'Save'}
            </Button>
          </>
        )
      }
    >
      {secret ? (
        <div className="space-y-4">
          <SecretOnce label="Signing secret" secret={secret} />
          {notice && (
            <p role="status" data-testid="endpoint-notice" className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800">
              {notice}
            </p>
          )}
        </div>
      ) : (
        <EndpointForm draft={draft} onChange={onDraft} errors={errors} onSubmit={onSubmit} />
      )}
    </Modal>
  )
}

/** One endpoint: its URL (and why it is disabled or failing), events, creation, switch and actions. */
function EndpointRow({ endpoint, toggling, onToggle, onEdit, onDelete }: { endpoint: Endpoint; toggling: boolean; onToggle: (enabled: boolean) => void; onEdit: () => void; onDelete: () => void }) {
  return (
    <tr>
      <td className={`${TD} max-w-xs`}>
        <p className="truncate font-mono text-xs text-slate-900" title={endpoint.url}>
          {endpoint.url}
        </p>
        {endpoint.description && <p className="truncate text-xs text-slate-500">{endpoint.description}</p>}
        {endpoint.disabled_reason && (
          <p className="mt-1 inline-flex items-center gap-1 text-xs font-medium text-rose-600">
            <AlertTriangle className="h-3.5 w-3.5" aria-hidden /> Disabled: {endpoint.disabled_reason}
          </p>
        )}
        {!endpoint.disabled_reason && endpoint.failing_since && (
          <p className="mt-1 inline-flex items-center gap-1 text-xs font-medium text-amber-700">
            <AlertTriangle className="h-3.5 w-3.5" aria-hidden /> Failing since {formatDateTime(endpoint.failing_since)}
          </p>
        )}
      </td>
      <td className={TD}>
        <div className="flex flex-wrap gap-1">
          {endpoint.events.map((event) => (
            <span key={event} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">
              {event}
            </span>
          ))}
        </div>
      </td>
      <td className={TD}>{formatDateTime(endpoint.created_at)}</td>
      <td className={TD}>
        <Toggle checked={endpoint.enabled} disabled={toggling} onChange={onToggle} label={`Enable ${endpoint.url}`} />
      </td>
      <td className={`${TD} whitespace-nowrap text-right`}>
        <Button variant="ghost" size="sm" onClick={onEdit} aria-label={`Edit ${endpoint.url}`}>
          <Pencil className="h-4 w-4" aria-hidden /> Edit
        </Button>
        <Button variant="ghost" size="sm" onClick={onDelete} aria-label={`Delete ${endpoint.url}`}>
          <Trash2 className="h-4 w-4" aria-hidden /> Delete
        </Button>
      </td>
    </tr>
  )
}

/** The endpoint's URL, description, events and switch. */
function EndpointForm({ draft, onChange, errors, onSubmit }: { draft: Draft; onChange: Dispatch<SetStateAction<Draft>>; errors: Errors; onSubmit: (e: FormEvent) => void }) {
  const flip = (event: string) =>
    onChange((d) => ({ ...d, events: d.events.includes(event) ? d.events.filter((x) => x !== event) : EVENTS.filter((x) => x === event || d.events.includes(x)) }))
  return (
    <form id="endpoint-form" onSubmit={onSubmit} noValidate className="space-y-4">
      {errors.form && (
        <p role="alert" className="rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-700">
          {errors.form}
        </p>
      )}
      <Field id="endpoint-url" label="URL" error={errors.url}>
        <Input id="endpoint-url" type="url" value={draft.url} maxLength={2048} placeholder="https://example.com/webhooks/callwright" onChange={(e) => onChange({ ...draft, url: e.target.value })} aria-invalid={!!errors.url} />
      </Field>
      <Field id="endpoint-description" label="Description" error={errors.description}>
        <Input id="endpoint-description" value={draft.description} maxLength={200} onChange={(e) => onChange({ ...draft, description: e.target.value })} />
      </Field>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-700">Events</legend>
        <div className="grid grid-cols-2 gap-2">
          {EVENTS.map((event) => (
            <label key={event} className="flex items-center gap-2 text-sm text-slate-700">
              <input type="checkbox" checked={draft.events.includes(event)} onChange={() => flip(event)} className="h-4 w-4 rounded border-slate-300 text-indigo-600" />
              <span className="font-mono">{event}</span>
            </label>
          ))}
        </div>
        {errors.events && (
          <p role="alert" className="text-xs font-medium text-rose-600">
            {errors.events}
          </p>
        )}
      </fieldset>
      <div className="flex items-center gap-3">
        <Toggle checked={draft.enabled} onChange={(enabled) => onChange({ ...draft, enabled })} label="Enabled" />
        <span className="text-sm text-slate-700">Enabled</span>
      </div>
    </form>
  )
}
