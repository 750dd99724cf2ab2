/** The user's live call on Send Call (spec section 8, and issue 16's "never lost"): the active
 * calls, the timer from the answer, and the transcript as it is spoken. On load it picks up the
 * user's calls still going on (from any tab, after a reload), replays their transcript so far and
 * lets the socket carry on from there. When the socket reconnects (its API process restarted),
 * it catches up the same way: the lines said meanwhile, the answer, or the end it missed. */
import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useReducer, useRef, useState, type Dispatch } from 'react'
import { formatTimer, parseDurationMessage } from '@/lib/format'
import { useRealtime, type WebhookEvent } from '@/lib/realtime'
import { closingToast } from '@/lib/outcomes'
import { notify } from '@/lib/toast'
import { callsApi } from './api'
import { liveCallsQuery, type LiveCall } from '@/components/calls/api'
import { refreshCallLists, useCallListUpdates } from '@/components/calls/useCallListUpdates'
import { EMPTY_TRANSCRIPT, isKeptLine, orderedLines, transcriptReducer, type TranscriptAction } from '@/components/calls/liveTranscript'

/** Realtime messages that are bookkeeping, not transcript changes. */
const HOUSEKEEPING = ['Call connected', 'Closing call stream', 'Call duration & price', 'Webhook Response', 'Ringing']

interface Options {
  /** A call still going on was found on load: the page shows its settings. */
  onPickedUp?: (call: LiveCall) => void
}

export function useLiveCall(userId: number, { onPickedUp }: Options = {}) {
  const queryClient = useQueryClient()
  const [activeCalls, setActiveCalls] = useState<string[]>([])
  /** The call on screen: the one placed or picked up last, kept after it ends (its transcript
   * and latency stay in view) until the next call or a stop. */
  const [callId, setCallId] = useState<string | null>(null)
  const timer = useCallTimer()
  const { answered } = timer
  const [finalDuration, setFinalDuration] = useState<string | null>(null)
  const [transcript, dispatch] = useReducer(transcriptReducer, EMPTY_TRANSCRIPT)
  const lines = useMemo(() => orderedLines(transcript), [transcript])

  usePickUp(userId, (call, calls) => {
    setActiveCalls(calls.map((c) => c.call_id))
    setCallId(call.call_id)
    answered(call.answered_at ? Date.parse(call.answered_at) : null)
    dispatch({ type: 'stored', entries: call.transcripts })
    onPickedUp?.(call)
  })

  const refreshLists = useCallback(() => refreshCallLists(queryClient, userId), [queryClient, userId])

  const clear = useCallback(() => {
    dispatch({ type: 'clear' })
    setFinalDuration(null)
  }, [])

  const fetchTranscript = useCallback(async (callId: string, ended = false) => {
    try {
      const details = await callsApi.details(callId)
      dispatch({ type: 'stored', entries: details.transcripts, ended })
    } catch {
      notify.error(`Failed to fetch call status for ${callId}`)
    }
  }, [])

  /** Calls already ended here: a closing and a catch-up that both saw the end end it once. */
  const ended = useRef(new Set<string>())
  const endCall = useCallback(
    (callId: string, closing: { outcome?: string | null; outcomeText?: string | null }) => {
      if (ended.current.has(callId)) return
      ended.current.add(callId)
      setActiveCalls((current) => current.filter((id) => id !== callId))
      answered(null)
      notify.info(closingToast(closing))
      refreshLists()
    },
    [refreshLists, answered],
  )

  useFollowEvents(userId, { activeCalls, callId, inCall: timer.inCall, answered, dispatch, setFinalDuration, fetchTranscript, endCall })

  return {
    activeCalls,
    callId,
    active: activeCalls.length > 0,
    inCall: timer.inCall,
    lines,
    elapsed: timer.elapsed,
    finalDuration,
    /** A new call was placed: it is the one followed now. */
    started: (callId: string) => {
      clear()
      answered(null)
      setActiveCalls((current) => [...current, callId])
      setCallId(callId)
      refreshLists()
    },
    /** The user stopped the call: it is no longer followed and its transcript is cleared. */
    stopped: (callId: string) => {
      setActiveCalls((current) => current.filter((id) => id !== callId))
      setCallId(null)
      answered(null)
      clear()
      refreshLists()
    },
    clear,
  }
}

/** The time since the answer, ticking each second while the call is answered. */
function useCallTimer() {
  const [connectedAt, setConnectedAt] = useState<number | null>(null)
  const [now, setNow] = useState(() => Date.now())
  const inCall = connectedAt !== null
  // The timer runs from the answer to the end of the call.
  useEffect(() => {
    if (!inCall) return
    const id = window.setInterval(() => setNow(Date.now()), 1000)
    return () => window.clearInterval(id)
  }, [inCall])
  /** The call was answered at `at` (null: it is not, or no longer). */
  const answered = useCallback((at: number | null) => {
    setConnectedAt(at)
    setNow(Date.now())
  }, [])
  return { inCall, elapsed: inCall ? Math.max(0, (now - connectedAt) / 1000) : 0, answered }
}

interface Followed {
  activeCalls: string[]
  /** The call on screen. */
  callId: string | null
  inCall: boolean
  answered: (at: number | null) => void
  dispatch: Dispatch<TranscriptAction>
  setFinalDuration: (duration: string) => void
  fetchTranscript: (callId: string, ended?: boolean) => Promise<void>
  endCall: (callId: string, closing: { outcome?: string | null; outcomeText?: string | null }) => void
}

/** The socket's events for the calls followed: the answer, the lines, the duration, the end;
 * and on a reconnect, what was missed. */
function useFollowEvents(userId: number, followed: Followed) {
  const { activeCalls, answered, dispatch, setFinalDuration, fetchTranscript, endCall } = followed
  const onWebhookEvent = (event: WebhookEvent) => {
    const message = event.message ?? ''
    if (!activeCalls.includes(event.callId)) return
    if (message === 'Call connected' && event.category === 'call') {
      answered(Date.now())
      return
    }
    if (message.startsWith('Call duration & price')) {
      const secs = parseDurationMessage(message)
      if (secs === null) {
        notify.warning('Could not parse call duration from server')
      } else {
        setFinalDuration(formatTimer(secs))
        notify.info(`Call duration updated: ${formatTimer(secs)}`)
      }
      return
    }
    if (message.startsWith('Closing call stream') || message.startsWith('Webhook Response: 200')) {
      void fetchTranscript(event.callId, true).finally(() => endCall(event.callId, event))
      return
    }
    if (isKeptLine(event)) {
      dispatch({ type: 'kept', event })
    } else if (event.category === 'action' && event.action) {
      dispatch({ type: 'action', event })
    } else if (event.category === 'flow' && event.step) {
      dispatch({ type: 'flow', event })
    } else if (event.category === 'call' && !HOUSEKEEPING.some((h) => message.startsWith(h))) {
      void fetchTranscript(event.callId)
    }
  }

  const catchUp = useCatchUp(userId, followed)

  // Recent Calls follow every call of the user's as it moves (ringing, answered, ended).
  useCallListUpdates(userId)
  useRealtime({
    onReconnect: () => void catchUp(),
    onWebhookEvent,
    onCaption: (event) => {
      if (activeCalls.includes(event.callId)) dispatch({ type: 'caption', event })
    },
    onError: (kind) =>
      notify.error(kind === 'balance' ? 'Failed to receive balance updates' : 'Failed to receive call updates', 'Socket Error'),
  })
}

/** The socket is back: what it missed is fetched. The call on screen gets its transcript so far
 * (and its answer); a followed call that ended meanwhile ends here as its closing would. */
function useCatchUp(userId: number, { activeCalls, callId, inCall, answered, dispatch, setFinalDuration, endCall }: Followed) {
  const queryClient = useQueryClient()
  return async () => {
    if (activeCalls.length === 0) return
    let live: LiveCall[]
    try {
      live = await queryClient.fetchQuery(liveCallsQuery(userId))
    } catch {
      notify.error('Failed to fetch user calls')
      return
    }
    for (const id of activeCalls) {
      const call = live.find((c) => c.call_id === id)
      if (call !== undefined) {
        if (id !== callId) continue
        dispatch({ type: 'resync', entries: call.transcripts })
        if (call.answered_at && !inCall) answered(Date.parse(call.answered_at))
        continue
      }
      // Not going on any more: ended, or its end still being processed (its closing will come).
      try {
        const details = await callsApi.details(id)
        if (!details.completed) {
          if (id === callId) dispatch({ type: 'resync', entries: details.transcripts })
          continue
        }
        if (id === callId) {
          dispatch({ type: 'stored', entries: details.transcripts, ended: true })
          setFinalDuration(formatTimer(details.corrected_duration))
        }
        endCall(id, details)
      } catch {
        notify.error(`Failed to fetch call status for ${id}`)
      }
    }
  }
}

/** On load: the user's newest call still going on is theirs again, with its transcript so far
 * (`onFound` is the one of the latest render). */
function usePickUp(userId: number, onFound: (call: LiveCall, calls: LiveCall[]) => void) {
  const queryClient = useQueryClient()
  const found = useRef(onFound)
  useEffect(() => {
    found.current = onFound
  })
  useEffect(() => {
    if (userId <= 0) return
    let cancelled = false
    queryClient
      .fetchQuery(liveCallsQuery(userId))
      .then((calls) => {
        const call = calls[calls.length - 1]
        if (cancelled || !call) return
        found.current(call, calls)
      })
      .catch(() => {
        if (!cancelled) notify.error('Failed to fetch user calls')
      })
    return () => {
      cancelled = true
    }
  }, [queryClient, userId])
}
