/** Pieces of the settings-like pages (developers, do-not-call): a confirm dialog, a section card
 * and a table with its loading, error and empty rows. */
import type { ReactNode } from 'react'
import { TableHead, TableState } from '@/components/kit'
import { Modal } from '@/components/Modal'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { cn } from '@/lib/cn'

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

/** The rows of an uploaded file that were refused, each with its reason (the first ones the
 * server kept; `total` counts them all). */
export function RefusedRows({ rows, total, testId }: { rows: { row: number; value: string; reason: string }[]; total: number; testId: string }) {
  if (rows.length === 0) return null
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[420px]" data-testid={testId}>
        <thead>
          <tr className="text-left text-xs uppercase tracking-wide text-slate-500">
            <th className="py-1 pr-4">Row</th>
            <th className="py-1 pr-4">Value</th>
            <th className="py-1">Why it was refused</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.row} className="align-top text-slate-700">
              <td className="py-1 pr-4 tabular-nums">{row.row}</td>
              <td className="py-1 pr-4 font-mono">{row.value || '(empty)'}</td>
              <td className="py-1">{row.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {total > rows.length && <p className="mt-1 text-xs text-slate-500">The first {rows.length} refused rows are shown.</p>}
    </div>
  )
}
