/** /dashboard/do-not-call: the user's own do-not-call list (docs/compliance.md). */
import { DoNotCallList } from '@/components/do-not-call/DoNotCallList'
import { PageHeader } from '@/components/kit'

export function DoNotCallPage() {
  return (
    <div className="space-y-6">
      <PageHeader title="Do not call" subtitle="Numbers on this list are never dialled for you: not from Send Call, not from the API. Callees who ask not to be called again during a call are added here by the agent." />
      <DoNotCallList scope="user" description="Add numbers by hand or import a CSV file (a phone or phone_number column, or numbers alone)." />
    </div>
  )
}
