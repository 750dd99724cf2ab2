/** API keys: create with a name (the key shown once), the list with prefix and times, revoke. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { KeyRound, Plus, Trash2 } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { TD } from '@/components/kit'
import { Modal } from '@/components/Modal'
import { Button } from '@/components/ui/button'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { ApiError, messageOf } from '@/lib/api'
import { formatDateTime } from '@/lib/format'
import { notify } from '@/lib/toast'
import { developersApi, devKeys, keysQuery, type ApiKey } from './api'
import { ConfirmDialog, Section, Table } from '@/components/panels'
import { SecretOnce } from './parts'

export function ApiKeys() {
  const keys = useQuery(keysQuery())
  const client = useQueryClient()
  const [creating, setCreating] = useState(false)
  const [name, setName] = useState('')
  const [nameError, setNameError] = useState<string>()
  const [created, setCreated] = useState<string | null>(null)
  const [revoking, setRevoking] = useState<ApiKey | null>(null)
  const rows = keys.data?.data ?? []

  const create = useMutation({
    mutationFn: (keyName: string) => developersApi.createKey(keyName),
    onSuccess: (res) => {
      setCreated(res.key)
      setName('')
      void client.invalidateQueries({ queryKey: devKeys.keys })
    },
    onError: (error) => setNameError(error instanceof ApiError ? (error.field('name') ?? error.message) : messageOf(error, 'Failed to create the API key')),
  })

  const revoke = useMutation({
    mutationFn: (key: ApiKey) => developersApi.revokeKey(key.id),
    onSuccess: () => {
      setRevoking(null)
      notify.success('API key revoked')
      void client.invalidateQueries({ queryKey: devKeys.keys })
    },
    onError: (error) => notify.error(messageOf(error, 'Failed to revoke the API key')),
  })

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!name.trim()) {
      setNameError('Give the key a name')
      return
    }
    setNameError(undefined)
    create.mutate(name.trim())
  }

  const close = () => {
    setCreating(false)
    setCreated(null)
    setNameError(undefined)
    setName('')
  }

  return (
    <Section
      id="api-keys"
      title="API keys"
      description="Keys authenticate the /v1 call API (never this dashboard). Send one as the authorization header."
      action={
        <Button onClick={() => setCreating(true)}>
          <Plus className="h-4 w-4" aria-hidden /> Create key
        </Button>
      }
    >
      <Table testId="keys-table" className="min-w-[560px]" labels={['Name', 'Key', 'Created', 'Last used', '']} skeletonRows={2} loading={keys.isPending} error={keys.isError ? 'Failed to load API keys' : null} empty="No API keys yet. Create one to use the /v1 API.">
        {rows.map((key) => (
          <KeyRow key={key.id} apiKey={key} onRevoke={() => setRevoking(key)} />
        ))}
      </Table>

      <Modal
        open={creating}
        onOpenChange={(o) => !o && close()}
        title={created ? 'Your new API key' : 'Create an API key'}
        footer={
          created ? (
            <Button onClick={close}>Done</Button>
          ) : (
            <>
              <Button variant="secondary" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" form="create-key" disabled={create.isPending}>
                Create key
              </Button>
            </>
          )
        }
      >
        {created ? (
          <SecretOnce label="API key" secret={created} />
        ) : (
          <form id="create-key" onSubmit={submit} noValidate>
            <Field id="key-name" label="Name" error={nameError} hint="What uses it, e.g. “CRM sync”.">
              <Input id="key-name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} aria-invalid={!!nameError} autoFocus />
            </Field>
          </form>
        )}
      </Modal>

      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this API key?"
        message={
          <p>
            Requests with <strong>{revoking?.name}</strong> ({revoking?.prefix}…) will be refused at once. This cannot be undone.
          </p>
        }
        confirm="Revoke key"
        busy={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking)}
        onCancel={() => setRevoking(null)}
      />
    </Section>
  )
}

/** One key: its name, prefix, times and the way to revoke it. */
function KeyRow({ apiKey, onRevoke }: { apiKey: ApiKey; onRevoke: () => void }) {
  return (
    <tr>
      <td className={`${TD} font-medium text-slate-900`}>
        <span className="inline-flex items-center gap-2">
          <KeyRound className="h-4 w-4 text-slate-400" aria-hidden />
          {apiKey.name}
        </span>
      </td>
      <td className={`${TD} font-mono`}>{apiKey.prefix}…</td>
      <td className={TD}>{formatDateTime(apiKey.created_at)}</td>
      <td className={TD}>{apiKey.last_used_at ? formatDateTime(apiKey.last_used_at) : 'Never'}</td>
      <td className={`${TD} text-right`}>
        <Button variant="ghost" size="sm" onClick={onRevoke} aria-label={`Revoke ${apiKey.name}`}>
          <Trash2 className="h-4 w-4" aria-hidden /> Revoke
        </Button>
      </td>
    </tr>
  )
}
