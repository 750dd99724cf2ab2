/** The account's signing secret (signs each call's own `webhook` URL): reveal, copy, rotate. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Eye, EyeOff, RefreshCw } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { messageOf } from '@/lib/api'
import { notify } from '@/lib/toast'
import { developersApi, devKeys, signingSecretQuery } from './api'
import { ConfirmDialog, Section } from '@/components/panels'
import { CopyButton } from './parts'

export function SigningSecret() {
  const [revealed, setRevealed] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const secret = useQuery({ ...signingSecretQuery(), enabled: revealed })
  const client = useQueryClient()

  const rotate = useMutation({
    mutationFn: developersApi.rotateSecret,
    onSuccess: (value) => {
      client.setQueryData(devKeys.secret, value)
      setRevealed(true)
      setConfirming(false)
      notify.success('Signing secret rotated')
    },
    onError: (error) => notify.error(messageOf(error, 'Failed to rotate the signing secret')),
  })

  return (
    <Section
      id="signing-secret"
      title="Signing secret"
      description="Signs what a call's own webhook URL gets: the call object at its end, as Bland sends it (X-Webhook-Signature). Endpoints above have their own secrets."
    >
      <div className="space-y-3 px-5 py-4">
        <div className="flex flex-wrap items-center gap-2">
          <code className="block min-w-0 flex-1 overflow-x-auto whitespace-nowrap rounded-lg bg-slate-100 px-3 py-2 font-mono text-sm text-slate-900" data-testid="signing-secret">
            {revealed && secret.data ? secret.data : 'whsec_••••••••••••••••••••••••••••••••'}
          </code>
          <Button variant="secondary" size="sm" onClick={() => setRevealed((r) => !r)} aria-label={revealed ? 'Hide the signing secret' : 'Reveal the signing secret'}>
            {revealed ? <EyeOff className="h-4 w-4" aria-hidden /> : <Eye className="h-4 w-4" aria-hidden />}
            {revealed ? 'Hide' : 'Reveal'}
          </Button>
          {revealed && secret.data && <CopyButton text={secret.data} label="Copy the signing secret" />}
          <Button variant="secondary" size="sm" onClick={() => setConfirming(true)}>
            <RefreshCw className="h-4 w-4" aria-hidden /> Rotate
          </Button>
        </div>
        {revealed && secret.isPending && <p className="text-sm text-slate-500">Loading…</p>}
        {secret.isError && (
          <p role="alert" className="text-sm text-rose-600">
            Failed to load the signing secret
          </p>
        )}
      </div>
      <ConfirmDialog
        open={confirming}
        title="Rotate the signing secret?"
        message={<p>Events are signed with the new secret at once: receivers that verify with the old one will refuse them until you update them.</p>}
        confirm="Rotate secret"
        busy={rotate.isPending}
        onConfirm={() => rotate.mutate()}
        onCancel={() => setConfirming(false)}
      />
    </Section>
  )
}
