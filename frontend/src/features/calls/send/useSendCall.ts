/** Placing, stopping and picking up Send Call's call, on top of `useLiveCall` (which follows it):
 * the checks before a call is placed (variables, balance), the request, what the server answers
 * (a notice, a calling-hours refusal the user can schedule past, a refused field), and a call
 * still going on found on load, whose settings fill the form again. */
import { useQueryClient } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import type { UseFormReturn } from 'react-hook-form'
import { requiredBalance } from '@/lib/format'
import { ApiError, messageOf } from '@/lib/api'
import { applyServerErrors } from '@/lib/forms'
import { notify } from '@/lib/toast'
import { formatInZone } from '@/lib/timezone'
import { refreshCallLists } from '@/components/calls/useCallListUpdates'
import { useUserTimeZone } from '@/components/account/useTimeZone'
import { callsApi, type SendCallBody } from '@/features/calls/api'
import { useLiveCall } from '@/features/calls/useLiveCall'
import { firstProblem, formOfLiveCall, refusalOf, sendBodyOf, SERVER_FIELDS, windowRefusalOf, type SendCallForm } from './form'
import type { Balance } from './useBalance'

interface Options {
  balance: Balance
  /** Values of the texts' {{variables}} by name. */
  variables: Record<string, string>
  /** The voice shown chosen (the language's first while none is picked). */
  voice: string
  /** The number as it will be dialled, shown so in the field. */
  tidyPhone: (value: string) => Promise<string>
  /** A call was placed: its transcript comes into view. */
  onPlaced: () => void
}

export function useSendCall(userId: number, form: UseFormReturn<SendCallForm>, options: Options) {
  const opening = useScheduleAtOpening(userId, options.balance)
  const call = useLiveCall(userId, {
    onPickedUp: (live) => {
      // The call is the user's again: its settings show, locked, as when it was placed.
      form.reset(formOfLiveCall(live))
      notify.info(`Your call to ${live.to} is still in progress.`)
    },
  })
  const placing = usePlacing(userId, form, { ...options, call, opening })

  const stop = async () => {
    const callId = call.activeCalls[call.activeCalls.length - 1]
    if (!callId) return notify.warning('No active call to stop')
    try {
      await callsApi.stop(callId)
      notify.success('Call stopped successfully')
      call.stopped(callId)
    } catch (error) {
      notify.error(messageOf(error, 'Failed to stop call'))
    }
  }

  return { ...placing, call, opening, stop: () => void stop() }
}

/** Placing the call: the checks the server would refuse it for said first here, the request,
 * and what the server answers. */
function usePlacing(userId: number, form: UseFormReturn<SendCallForm>, options: Options & { call: ReturnType<typeof useLiveCall>; opening: ReturnType<typeof useScheduleAtOpening> }) {
  const { call, opening } = options
  const [sending, setSending] = useState(false)
  /** What the server said about the call just placed (the sandbox's calling-hours notice). */
  const [notice, setNotice] = useState<string | null>(null)
  /** "Please add funds": the refusal, with the way to the Billing page beside the balance. */
  const [fundsProblem, setFundsProblem] = useState<string | null>(null)
  const [variablesProblem, setVariablesProblem] = useState<string | null>(null)

  const send = async (values: SendCallForm) => {
    const available = options.balance.shown ?? 0
    const refused = refusalOf(values, options.variables, available)
    setVariablesProblem(refused?.kind === 'variables' ? refused.problem : null)
    if (refused?.kind !== 'variables') setFundsProblem(refused?.problem ?? null)
    if (refused) return notify.error(refused.problem, refused.kind === 'variables' ? 'Validation Error' : 'Balance Error')
    const phone = await options.tidyPhone(values.phone)
    call.clear()
    setNotice(null)
    opening.reset()
    setSending(true)
    try {
      const body = sendBodyOf(values, { userId, phone, voice: options.voice, variables: options.variables })
      opening.remember(body)
      const result = await callsApi.send(body)
      if (!result.callId) {
        notify.error('Failed to track call status')
        return
      }
      call.started(result.callId)
      options.balance.set(result.balance)
      setNotice(result.notice ?? null)
      options.onPlaced()
      const projected = available - requiredBalance(values.maxDuration)
      if (projected < 1) notify.warning(`Your balance is low after this call: $${projected.toFixed(2)}. Consider adding funds.`)
      else notify.info(`Balance sufficient: $${projected.toFixed(2)} available.`)
    } catch (error) {
      applyServerErrors(error, form.setError, [], SERVER_FIELDS)
      if (error instanceof ApiError && error.status === 402) setFundsProblem(error.message)
      opening.refused(error)
      notify.error(messageOf(error, 'Failed to initiate call'))
    } finally {
      setSending(false)
    }
  }

  return {
    sending,
    notice,
    fundsProblem,
    variablesProblem,
    /** The form is checked, then the call placed; a refused field is named in a toast. */
    place: () =>
      void form.handleSubmit(send, (errors) => {
        const problem = firstProblem(errors)
        if (problem) notify.error(problem, 'Validation Error')
      })(),
  }
}

/** "Call when the window opens": a request refused for the calling hours, sent again scheduled
 * for the next opening. */
function useScheduleAtOpening(userId: number, balance: Balance) {
  const queryClient = useQueryClient()
  const timeZone = useUserTimeZone()
  /** The last request sent, re-sent with `start_at`. */
  const lastBody = useRef<SendCallBody | null>(null)
  const [refusal, setRefusal] = useState<{ message: string; nextOpenAt: string } | null>(null)
  const [scheduling, setScheduling] = useState(false)
  const [scheduled, setScheduled] = useState<{ callId: string; to: string; at: string } | null>(null)

  const schedule = async () => {
    const body = lastBody.current
    if (!body || !refusal) return
    setScheduling(true)
    try {
      const result = await callsApi.send({ ...body, start_at: refusal.nextOpenAt })
      setRefusal(null)
      balance.set(result.balance)
      const at = result.scheduled_for ?? refusal.nextOpenAt
      setScheduled({ callId: result.callId, to: body.phone, at })
      refreshCallLists(queryClient, userId)
      notify.success(`Call to ${body.phone} scheduled for ${formatInZone(at, timeZone)} (${timeZone}).`)
    } catch (error) {
      notify.error(messageOf(error, 'Failed to initiate call'))
    } finally {
      setScheduling(false)
    }
  }

  return {
    refusal,
    scheduling,
    scheduled,
    timeZone,
    /** A new call is being placed: the last refusal and scheduled call are put away. */
    reset: () => {
      setRefusal(null)
      setScheduled(null)
    },
    remember: (body: SendCallBody) => {
      lastBody.current = body
    },
    refused: (error: unknown) => setRefusal(windowRefusalOf(error)),
    schedule: () => void schedule(),
  }
}
