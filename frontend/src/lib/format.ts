/** Display rules from the spec, in one place. */

export function formatCurrency(dollars: number): string {
  return `$${(Number.isFinite(dollars) ? dollars : 0).toFixed(2)}`
}

/** Balance colour: 1 or more green; between 0 and 1 yellow; 0 or less red. */
export function balanceTone(balance: number): 'green' | 'yellow' | 'red' {
  if (balance >= 1) return 'green'
  if (balance > 0) return 'yellow'
  return 'red'
}

export function formatDateTime(iso: string): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return '—'
  return d.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })
}

export function formatDate(iso: string): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return '—'
  return d.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' })
}
