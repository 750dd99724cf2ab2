/** /admin/do-not-call: the global do-not-call list, binding every user and the free test call
 * (docs/compliance.md). */
import { DoNotCallList } from '@/components/do-not-call/DoNotCallList'
import { PageHeader } from '@/components/kit'

export function GlobalDoNotCallPage() {
  return (
    <div className="space-y-6">
      <PageHeader title="Do not call" subtitle="The global list: its numbers are never dialled for anyone, the landing page's free test call included." />
      <DoNotCallList scope="global" description="Add numbers by hand or import a CSV file (a phone or phone_number column, or numbers alone)." />
    </div>
  )
}
