/** A do-not-call list (a user's own, or the admins' global one): add a number with a note,
 * search, page, remove with a confirmation, import a CSV file with its report, export as CSV. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Download, PhoneOff, Plus, Trash2, Upload } from 'lucide-react'
import { useCallback, useRef, useState, type FormEvent } from 'react'
import { SearchBox, TD } from '@/components/kit'
import { Pager } from '@/components/Pager'
import { ConfirmDialog, RefusedRows, Section, Table } from '@/components/panels'
import { Button } from '@/components/ui/button'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { ApiError, messageOf } from '@/lib/api'
import { formatDateTime } from '@/lib/format'
import { notify } from '@/lib/toast'
import { saveBlob } from '@/lib/download'
import { dncApi, dncKeys, dncQuery, EXPORT_NAME, NOTE_MAX, NUMBER_MAX, type DoNotCallEntry, type ImportReport, type Scope } from './api'

const SOURCE_LABEL: Record<DoNotCallEntry['source'], string> = { manual: 'Added by hand', import: 'Imported', 'opt-out': 'Opted out in a call' }
/** The server's own rule (kit/phone.py LIST_NUMBER_FORMAT), checked here first. */
const NUMBER_RE = /^\+[1-9]\d{6,14}$/
const NUMBER_HINT = 'Enter the number in international form, starting with "+" (e.g., +15551234567).'

function AddNumber({ scope }: { scope: Scope }) {
  const client = useQueryClient()
  const [phone, setPhone] = useState('')
  const [note, setNote] = useState('')
  const [errors, setErrors] = useState<{ phone?: string; note?: string }>({})
  const add = useMutation({
    mutationFn: () => dncApi.add(scope, phone.trim(), note.trim() || null),
    onSuccess: (res) => {
      notify.success(res.created ? `${res.data.phone_number} added to the do-not-call list` : `${res.data.phone_number} is already on the list`)
      setPhone('')
      setNote('')
      void client.invalidateQueries({ queryKey: dncKeys.all(scope) })
    },
    onError: (error) =>
      error instanceof ApiError && (error.field('phone_number') || error.field('note'))
        ? setErrors({ phone: error.field('phone_number'), note: error.field('note') })
        : notify.error(messageOf(error, 'Failed to add the number')),
  })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const compact = phone.trim().replace(/[\s().-]/g, '')
    if (!NUMBER_RE.test(compact)) {
      setErrors({ phone: phone.trim() ? NUMBER_HINT : 'Enter a phone number' })
      return
    }
    setErrors({})
    add.mutate()
  }
  return (
    <form onSubmit={submit} noValidate className="grid gap-3 border-b border-slate-200 px-5 py-4 sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)_auto] sm:items-start" aria-label="Add a number">
      <Field id={`dnc-${scope}-phone`} label="Phone number" error={errors.phone}>
        <Input id={`dnc-${scope}-phone`} value={phone} onChange={(e) => setPhone(e.target.value)} placeholder="+15551234567" maxLength={NUMBER_MAX} inputMode="tel" aria-invalid={!!errors.phone} aria-describedby={errors.phone ? `dnc-${scope}-phone-error` : undefined} />
      </Field>
      <Field id={`dnc-${scope}-note`} label="Note (optional)" error={errors.note}>
        <Input id={`dnc-${scope}-note`} value={note} onChange={(e) => setNote(e.target.value)} placeholder="Asked by e-mail on 3 March" maxLength={NOTE_MAX} aria-invalid={!!errors.note} />
      </Field>
      <Button type="submit" className="sm:mt-6" disabled={add.isPending}>
        <Plus className="h-4 w-4" aria-hidden /> {add.isPending ? 'Adding…' : 'Add number'}
      </Button>
    </form>
  )
}

function ImportResult({ report, onClose }: { report: ImportReport; onClose: () => void }) {
  return (
    <div className="space-y-3 border-b border-slate-200 bg-slate-50 px-5 py-4 text-sm" role="status" data-testid="dnc-import-report">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-medium text-slate-900">
          Import finished: {report.added} added, {report.already_listed} already listed, {report.refused_count} refused.
        </p>
        <Button variant="secondary" size="sm" onClick={onClose}>
          Dismiss
        </Button>
      </div>
      <RefusedRows rows={report.refused} total={report.refused_count} testId="dnc-refused" />
    </div>
  )
}

function ListActions({ scope, onImported }: { scope: Scope; onImported: (report: ImportReport) => void }) {
  const client = useQueryClient()
  const picker = useRef<HTMLInputElement>(null)
  const importFile = useMutation({
    mutationFn: (file: File) => dncApi.importFile(scope, file),
    onSuccess: (report) => {
      onImported(report)
      void client.invalidateQueries({ queryKey: dncKeys.all(scope) })
    },
    onError: (error) => notify.error(error instanceof ApiError ? (error.field('file') ?? error.message) : messageOf(error, 'Failed to import the file')),
  })
  const exportCsv = useMutation({
    mutationFn: () => dncApi.exportCsv(scope),
    onSuccess: (blob) => saveBlob(blob, EXPORT_NAME[scope]),
    onError: (error) => notify.error(messageOf(error, 'Failed to export the list')),
  })
  return (
    <div className="flex flex-wrap gap-2">
      <input
        ref={picker}
        type="file"
        accept=".csv,text/csv,text/plain"
        className="sr-only"
        aria-label="CSV file to import"
        data-testid="dnc-import-file"
        onChange={(e) => {
          const file = e.target.files?.[0]
          e.target.value = ''
          if (file) importFile.mutate(file)
        }}
      />
      <Button variant="secondary" onClick={() => picker.current?.click()} disabled={importFile.isPending}>
        <Upload className="h-4 w-4" aria-hidden /> {importFile.isPending ? 'Importing…' : 'Import CSV'}
      </Button>
      <Button variant="secondary" onClick={() => exportCsv.mutate()} disabled={exportCsv.isPending}>
        <Download className="h-4 w-4" aria-hidden /> Export CSV
      </Button>
    </div>
  )
}

export function DoNotCallList({ scope, description }: { scope: Scope; description: string }) {
  const client = useQueryClient()
  const [search, setSearch] = useState('')
  const [page, setPage] = useState(1)
  const [report, setReport] = useState<ImportReport | null>(null)
  const [removing, setRemoving] = useState<DoNotCallEntry | null>(null)
  const list = useQuery(dncQuery(scope, search, page))
  const rows = list.data?.data ?? []
  const pagination = list.data?.pagination
  const onSearch = useCallback((q: string) => {
    setSearch(q)
    setPage(1)
  }, [])
  const remove = useMutation({
    mutationFn: (entry: DoNotCallEntry) => dncApi.remove(scope, entry.id),
    onSuccess: (res) => {
      setRemoving(null)
      notify.success(res.message)
      void client.invalidateQueries({ queryKey: dncKeys.all(scope) })
    },
    onError: (error) => notify.error(messageOf(error, 'Failed to remove the number')),
  })
  const empty = search ? 'No listed number matches your search.' : 'No numbers on the list yet. Numbers you add here are never called.'

  return (
    <Section id={`dnc-${scope}`} title={scope === 'global' ? 'Global do-not-call list' : 'Do-not-call list'} description={description} action={<ListActions scope={scope} onImported={setReport} />}>
      <AddNumber scope={scope} />
      {report && <ImportResult report={report} onClose={() => setReport(null)} />}
      <div className="flex flex-wrap items-center justify-between gap-3 px-5 py-3">
        <SearchBox placeholder="Search numbers" onSearch={onSearch} />
        {pagination && <p className="text-sm text-slate-500" data-testid="dnc-total">{pagination.total === 1 ? '1 number' : `${pagination.total} numbers`}</p>}
      </div>
      <Table testId="dnc-table" className="min-w-[640px]" labels={['Number', 'Source', 'Note', 'Added', '']} skeletonRows={3} loading={list.isPending} error={list.isError ? 'Failed to load the do-not-call list' : null} empty={empty}>
        {rows.map((entry) => (
          <tr key={entry.id}>
            <td className={`${TD} font-mono text-slate-900`}>
              <span className="inline-flex items-center gap-2">
                <PhoneOff className="h-4 w-4 text-slate-400" aria-hidden />
                {entry.phone_number}
              </span>
            </td>
            <td className={TD}>{SOURCE_LABEL[entry.source]}</td>
            <td className={`${TD} max-w-xs`}>
              {entry.evidence ? <q className="italic">{entry.evidence}</q> : entry.note || <span className="text-slate-400">—</span>}
              {entry.call_id && <p className="mt-0.5 text-xs text-slate-500">Call {entry.call_id.slice(0, 8)}</p>}
            </td>
            <td className={`${TD} whitespace-nowrap`}>{formatDateTime(entry.created_at)}</td>
            <td className={`${TD} text-right`}>
              <Button variant="ghost" size="sm" onClick={() => setRemoving(entry)} aria-label={`Remove ${entry.phone_number}`}>
                <Trash2 className="h-4 w-4" aria-hidden /> Remove
              </Button>
            </td>
          </tr>
        ))}
      </Table>
      {pagination && pagination.last_page > 1 && <Pager page={pagination.current_page} lastPage={pagination.last_page} onPage={setPage} busy={list.isFetching} />}
      <ConfirmDialog
        open={removing !== null}
        title="Remove this number?"
        message={<>{removing?.phone_number} can be called again once it is off the list.</>}
        confirm="Remove"
        busy={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing)}
        onCancel={() => setRemoving(null)}
      />
    </Section>
  )
}
