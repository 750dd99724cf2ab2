import { Button } from '@/components/ui/button'

/** Previous / "Page X of Y" / Next under a paged list. */
export function Pager({ page, lastPage, onPage, busy = false }: { page: number; lastPage: number; onPage: (page: number) => void; busy?: boolean }) {
  return (
    <nav className="flex items-center justify-between gap-2 border-t border-slate-200 px-5 py-3 text-sm" aria-label="Pagination">
      <Button variant="secondary" size="sm" disabled={page <= 1 || busy} onClick={() => onPage(Math.max(1, page - 1))}>
        Previous
      </Button>
      <span className="text-slate-600">
        Page {page} of {lastPage}
      </span>
      <Button variant="secondary" size="sm" disabled={page >= lastPage || busy} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  )
}
