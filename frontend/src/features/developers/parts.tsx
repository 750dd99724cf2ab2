/** Small pieces of the developers page: a copy button, a secret shown once and a code block. */
import { Check, Copy } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
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

export function CodeBlock({ code, label }: { code: string; label: string }) {
  return (
    <div className="space-y-2">
      <div className="flex items-center justify-between">
        <p className="text-sm font-medium text-slate-700">{label}</p>
        <CopyButton text={code} label={`Copy ${label.toLowerCase()}`} />
      </div>
      {/* Focusable, so a keyboard can scroll a long line into view. */}
      <pre tabIndex={0} aria-label={label} className="overflow-x-auto rounded-lg bg-slate-900 p-4 text-xs leading-relaxed text-slate-100">
        <code>{code}</code>
      </pre>
    </div>
  )
}
