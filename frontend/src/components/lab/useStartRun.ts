/** Starting a run of an owner's suite (all, one suite, some scenarios). */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { messageOf } from '@/lib/api'
import { notify } from '@/lib/toast'
import { labApi, labKeys, type LabOwner, type RunIn } from './api'

/** Starting a run: where it goes once started, and the refusal as the server says it. */
export function useStartRun(owner: LabOwner, onStarted: (runId: string) => void) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: RunIn & { suite?: string }) => labApi.run(owner, body),
    onSuccess: (result) => {
      client.setQueryData(labKeys.run(result.data.id), result.data)
      void client.invalidateQueries({ queryKey: labKeys.runs(owner) })
      notify.success(result.message)
      onStarted(result.data.id)
    },
    onError: (error) => notify.error(messageOf(error, 'Failed to start the run')),
  })
}
