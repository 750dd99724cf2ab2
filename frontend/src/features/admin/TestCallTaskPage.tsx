/** Manage Test Call Prompt (spec sections 2, 4, 5, 8): the landing page's test-call prompt with
 * a 1000-character counter, Reset, Update after a confirmation, and the today / this-week
 * counters (reloaded after each save). */
import { AlertDialog } from 'radix-ui'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { Card, Skeleton } from '@/components/ui/card'
import { ApiError, messageOf } from '@/lib/api'
import { cn } from '@/lib/cn'
import { adminApi, adminKeys, taskQuery, todayQuery, weekQuery } from './api'
import { PageHeader, TextArea } from '@/components/kit'
import { PROMPT_MAX, checkPrompt } from './rules'

/** Shown when the current prompt cannot be loaded (the spec's "default greeting"). */
export const FALLBACK_PROMPT = 'Hello! This is a test call from Callwright. How can I help you today?'

export function TestCallTaskPage() {
  const task = useQuery(taskQuery())
  const today = useQuery(todayQuery())
  const week = useQuery(weekQuery())
  const counter = (label: string, q: typeof today, failed: string) => (
    <Card className="p-5">
      <p className="text-sm font-medium text-slate-500">{label}</p>
      {q.isPending ? (
        <Skeleton className="mt-3 h-8 w-16" />
      ) : q.isError ? (
        <p role="alert" className="mt-2 text-sm text-rose-600">
          {failed}
        </p>
      ) : (
        <p className="mt-2 text-3xl font-bold tabular-nums text-slate-900">{q.data}</p>
      )}
    </Card>
  )
  const loadError = !task.isError ? null : task.error instanceof ApiError && task.error.status === 401 ? 'Unauthorized: Please log in again.' : 'Failed to load current Prompt'
  return (
    <div className="space-y-6">
      <PageHeader title="Manage Test Call Prompt" subtitle="What the agent says on the landing page's free test call." />
      <div className="grid gap-4 sm:grid-cols-2" data-testid="test-call-counters">
        {counter('Test Calls Today', today, 'Failed to load test calls count for today')}
        {counter('Test Calls This Week', week, 'Failed to load weekly test calls count')}
      </div>
      {task.isPending ? <Skeleton className="h-72 w-full" /> : <PromptEditor initial={task.data ?? FALLBACK_PROMPT} loadError={loadError} />}
    </div>
  )
}

/** The editor, mounted once the current prompt (or the fallback) is known. */
function PromptEditor({ initial, loadError }: { initial: string; loadError: string | null }) {
  const client = useQueryClient()
  const [saved, setSaved] = useState(initial)
  const [text, setText] = useState(initial)
  const [confirming, setConfirming] = useState(false)
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(loadError ? { tone: 'error', text: loadError } : null)

  const save = useMutation({
    mutationFn: (value: string) => adminApi.saveTask(value),
    onSuccess: (res, value) => {
      setSaved(value)
      setMessage({ tone: 'ok', text: res.message })
      client.setQueryData(taskQuery().queryKey, value)
      void client.invalidateQueries({ queryKey: adminKeys.testCalls })
    },
    onError: (error) => setMessage({ tone: 'error', text: messageOf(error, 'Failed to update test call task') }),
  })

  const error = checkPrompt(text)
  const changed = text !== saved

  return (
    <>
      <Card className="space-y-3 p-5">
        <label htmlFor="test-call-prompt" className="block text-sm font-medium text-slate-700">
          Prompt
        </label>
        <TextArea
            id="test-call-prompt"
            rows={10}
            maxLength={PROMPT_MAX}
            value={text}
            onChange={(e) => {
              setText(e.target.value)
              setMessage(null)
            }}
            aria-invalid={Boolean(error)}
            aria-describedby="prompt-counter"
          />
        <p id="prompt-counter" className={cn('text-xs', text.length >= PROMPT_MAX ? 'text-amber-600' : 'text-slate-500')}>
          Maximum {PROMPT_MAX} characters. Current: {text.length}/{PROMPT_MAX}
        </p>
        {error && changed && (
          <p role="alert" className="text-sm text-rose-600">
            {error}
          </p>
        )}
        {message && (
          <p role={message.tone === 'error' ? 'alert' : 'status'} className={cn('text-sm', message.tone === 'error' ? 'text-rose-600' : 'text-emerald-700')}>
            {message.text}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button
            variant="secondary"
            disabled={!changed}
            onClick={() => {
              setText(saved)
              setMessage(null)
            }}
          >
            Reset
          </Button>
          <Button disabled={!changed || Boolean(error) || save.isPending} onClick={() => setConfirming(true)}>
            {save.isPending ? 'Updating...' : 'Update Prompt'}
          </Button>
        </div>
      </Card>
      <AlertDialog.Root open={confirming} onOpenChange={setConfirming}>
        <AlertDialog.Portal>
          <AlertDialog.Overlay className="fixed inset-0 z-50 bg-slate-900/40" />
          <AlertDialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 space-y-4 rounded-xl bg-white p-6 shadow-xl">
            <AlertDialog.Title className="text-lg font-semibold text-slate-900">Update the test call prompt?</AlertDialog.Title>
            <AlertDialog.Description className="text-sm text-slate-600">Every free test call from the landing page will use the new prompt.</AlertDialog.Description>
            <div className="flex justify-end gap-2">
              <AlertDialog.Cancel asChild>
                <Button variant="secondary">Cancel</Button>
              </AlertDialog.Cancel>
              <AlertDialog.Action asChild>
                <Button onClick={() => save.mutate(text)}>OK</Button>
              </AlertDialog.Action>
            </div>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
    </>
  )
}
