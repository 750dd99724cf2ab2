/** Generic page pieces (the back-office uses them): the page header, a debounced search box, a select,
 * a text area, and a table's head and loading / error / empty row. */
import { Search } from 'lucide-react'
import { useEffect, useRef, useState, type ReactNode, type SelectHTMLAttributes } from 'react'
import { Skeleton } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { cn } from '@/lib/cn'

export function PageHeader({ title, subtitle, action }: { title: string; subtitle?: string; action?: ReactNode }) {
  return (
    <header className="flex flex-wrap items-end justify-between gap-3">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
        {subtitle && <p className="mt-1 text-sm text-slate-500">{subtitle}</p>}
      </div>
      {action}
    </header>
  )
}

/** A search box that reports its text 300 ms after typing stops. */
export function SearchBox({ placeholder, onSearch }: { placeholder: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState('')
  // Only a changed search is sent: the empty one at mount would reset a page the user has
  // already moved to (a Next clicked within the 300 ms).
  const sent = useRef('')
  useEffect(() => {
    const query = text.trim()
    if (query === sent.current) return
    const timer = setTimeout(() => {
      sent.current = query
      onSearch(query)
    }, 300)
    return () => clearTimeout(timer)
  }, [text, onSearch])
  return (
    <div className="relative w-full max-w-md">
      <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-400" aria-hidden />
      <Input type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder={placeholder} aria-label={placeholder} className="pl-9" maxLength={100} />
    </div>
  )
}

export function Select({ className, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <select
      className={cn('block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30', className)}
      {...props}
    />
  )
}

export function TextArea({ className, ...props }: React.TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <textarea
      className={cn(
        'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 aria-[invalid=true]:border-rose-400',
        className,
      )}
      {...props}
    />
  )
}

/** The body of a table while it loads, fails or has no rows; null when rows should show. */
export function TableState({ columns, rows, loading, error, empty, hasRows }: { columns: number; rows: number; loading: boolean; error?: string | null; empty: string; hasRows: boolean }) {
  if (loading)
    return (
      <>
        {Array.from({ length: rows }, (_, i) => (
          <tr key={i} aria-hidden>
            <td colSpan={columns} className="px-4 py-3">
              <Skeleton className="h-5 w-full" />
            </td>
          </tr>
        ))}
      </>
    )
  if (error)
    return (
      <tr>
        <td colSpan={columns} role="alert" className="px-4 py-10 text-center text-sm text-rose-600">
          {error}
        </td>
      </tr>
    )
  if (!hasRows)
    return (
      <tr>
        <td colSpan={columns} className="px-4 py-10 text-center text-sm text-slate-500">
          {empty}
        </td>
      </tr>
    )
  return null
}

/** A table's header row of plain column labels; `widths` gives some columns a width class. */
export function TableHead({ labels, widths = {} }: { labels: string[]; widths?: Record<string, string> }) {
  return (
    <thead className="bg-slate-50">
      <tr>
        {labels.map((label) => (
          <th key={label} scope="col" className={cn(TH, widths[label])}>
            {label}
          </th>
        ))}
      </tr>
    </thead>
  )
}

export const TH = 'px-4 py-3 text-left text-xs font-semibold uppercase tracking-wide text-slate-500'
export const TD = 'px-4 py-3 text-sm text-slate-700'
