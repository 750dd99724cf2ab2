/** Toasts with the spec's defaults: top-right, 5 s, a title and a message. */
import { toast } from 'sonner'

export const TOAST_DURATION_MS = 5000

type Kind = 'success' | 'error' | 'info' | 'warning'

function show(kind: Kind, message: string, title?: string): void {
  const fn = toast[kind]
  if (title) fn(title, { description: message })
  else fn(message)
}

export const notify = {
  success: (message: string, title?: string) => show('success', message, title),
  error: (message: string, title?: string) => show('error', message, title),
  info: (message: string, title?: string) => show('info', message, title),
  warning: (message: string, title?: string) => show('warning', message, title),
}

/** A toast that offers one thing to do (a button in it), shown longer than the others: 10 s. */
export function offer(message: string, label: string, onClick: () => void): void {
  toast.info(message, { action: { label, onClick }, duration: TOAST_DURATION_MS * 2 })
}
