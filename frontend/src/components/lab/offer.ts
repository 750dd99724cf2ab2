/** After an agent is saved (or a flow published): when its suite has scenarios, a toast offers to
 * run them ("Run its 8 tests") against what was saved, which starts a run and opens the Tests tab
 * on it. */
import type { QueryClient } from '@tanstack/react-query'
import { messageOf } from '@/lib/api'
import { notify, offer } from '@/lib/toast'
import { labApi, scenariosQuery, testsPath, type LabOwner } from './api'

export async function offerSuiteRun(client: QueryClient, owner: LabOwner, open: (path: string) => void, against = 'the saved settings'): Promise<void> {
  let count: number
  try {
    count = (await client.fetchQuery({ ...scenariosQuery(owner), staleTime: 0 })).length
  } catch {
    return // No suite to read: nothing to offer.
  }
  if (count === 0) return
  offer(`Its suite has ${count} ${count === 1 ? 'scenario' : 'scenarios'}: run ${count === 1 ? 'it' : 'them'} against ${against}?`, `Run its ${count} ${count === 1 ? 'test' : 'tests'}`, () => {
    labApi
      .run(owner, {})
      .then((run) => {
        notify.success(run.message)
        open(testsPath(owner, run.data.id))
      })
      .catch((error: unknown) => notify.error(messageOf(error, 'Failed to start the run')))
  })
}
