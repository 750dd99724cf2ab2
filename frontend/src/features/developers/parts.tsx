/** Small pieces of the developers page: a copy button, a secret shown once, a confirm dialog,
 * a section card and a code block. */
import { Check, Copy } from 'lucide-react'
import { useState, type ReactNode } from 'react'
import { TableHead, TableState } from '@/components/kit'
import { Modal } from '@/components/Modal'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { cn } from '@/lib/cn'
import { notify } from '@/lib/toast'

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text)
      setCopied(true)
      setTimeout(() => setCopied(false), 2000)
    } catch {
      notify.error('Could not copy: select the text and copy it by hand')
    }
  }
  return (
    <Button type="button" variant="secondary" size="sm" onClick={copy} aria-label={label}>
      {copied ? <Check className="h-4 w-4" aria-hidden /> : <Copy className="h-4 w-4" aria-hidden />}
      {copied ? 'Copied' : 'Copy'}
    </Button>
  )
}

/** A secret shown this once, with a copy button and the warning. */
export function SecretOnce({ label, secret }: { label: string; secret: string }) {
  return (
    <div className="space-y-2" data-testid="secret-once">
      <p className="text-sm font-medium text-slate-700">{label}</p>
      <div className="flex items-center gap-2">
        <code className="block min-w-0 flex-1 overflow-x-auto whitespace-nowrap rounded-lg bg-slate-100 px-3 py-2 font-mono text-sm text-slate-900">{secret}</code>
        <CopyButton text={secret} label={`Copy ${label.toLowerCase()}`} />
      </div>
      <p role="note" className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800 ring-1 ring-amber-200">
        Copy it now and keep it somewhere safe: you won't see it again.
      </p>
    </div>
  )
}

export function ConfirmDialog({
  open,
  title,
  message,
  confirm,
  busy,
  onConfirm,
  onCancel,
}: {
  open: boolean
  title: string
  message: ReactNode
  confirm: string
  busy?: boolean
  onConfirm: () => void
  onCancel: () => void
}) {
  return (
    <Modal
      open={open}
      onOpenChange={(o) => !o && onCancel()}
      title={title}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button variant="danger" onClick={onConfirm} disabled={busy}>
            {confirm}
          </Button>
        </>
      }
    >
      <div className="text-sm text-slate-700">{message}</div>
    </Modal>
  )
}

export function Section({ id, title, description, action, children }: { id: string; title: string; description: ReactNode; action?: ReactNode; children: ReactNode }) {
  return (
    <Card className="overflow-hidden" aria-labelledby={id} role="region">
      <div className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-200 px-5 py-4">
        <div>
          <h2 id={id} className="text-lg font-semibold text-slate-900">
            {title}
          </h2>
          <p className="mt-0.5 text-sm text-slate-500">{description}</p>
        </div>
        {action}
      </div>
      {children}
    </Card>
  )
}

export function CodeBlock({ code, label }: { code: string; label: string }) {
  return (
    <div className="space-y-2">
      <div className="flex items-center justify-between">
        <p className="text-sm font-medium text-slate-700">{label}</p>
        <CopyButton text={code} label={`Copy ${label.toLowerCase()}`} />
      </div>
      <pre className="overflow-x-auto rounded-lg bg-slate-900 p-4 text-xs leading-relaxed text-slate-100">
        <code>{code}</code>
      </pre>
    </div>
  )
}

/** A scrolling table with its header, and its loading / error / empty row until rows show. */
export function Table({
  testId,
  className,
  labels,
  loading,
  error,
  empty,
  skeletonRows,
  children,
}: {
  testId: string
  className: string
  labels: string[]
  loading: boolean
  error: string | null
  empty: string
  skeletonRows: number
  children: ReactNode[]
}) {
  return (
    <div className="overflow-x-auto">
      <table className={cn('w-full', className)} data-testid={testId}>
        <TableHead labels={labels} />
        <tbody className="divide-y divide-slate-100">
          <TableState columns={labels.length} rows={skeletonRows} loading={loading} error={error} empty={empty} hasRows={children.length > 0} />
          {!loading && !error && children}
        </tbody>
      </table>
    </div>
  )
}
