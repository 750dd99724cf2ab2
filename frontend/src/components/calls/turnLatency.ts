/** A call's per-reply latency: what was stored, merged with the `turn-latency` socket events
 * that arrive while the call is live (so a page that joins mid-call shows the earlier replies). */
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useSocketEvent, type LiveEvents } from '@/lib/realtime'
import { latencyQuery, type TurnLatency } from './api'

export const TURN_LATENCY_EVENT = 'turn-latency' satisfies keyof LiveEvents

/** The stages in the order a reply goes through them, with their column labels. */
export const STAGES = [
  { key: 'end_of_speech_ms', label: 'End of speech', hint: 'silence that ended the callee’s turn' },
  { key: 'stt_ms', label: 'STT', hint: 'speech to text, after the silence' },
  { key: 'llm_ms', label: 'Brain', hint: 'the LLM or policy, to its first words' },
  { key: 'tts_ms', label: 'TTS', hint: 'text to speech, to the first audio' },
  { key: 'total_ms', label: 'Heard', hint: 'the callee’s last word to the agent’s first audio' },
] as const satisfies readonly { key: keyof TurnLatency; label: string; hint: string }[]

export type Stage = (typeof STAGES)[number]['key']

/** The median of the measured values (null when none was measured). */
export function median(values: readonly (number | null | undefined)[]): number | null {
  const measured = values.filter((v): v is number => typeof v === 'number').sort((a, b) => a - b)
  if (measured.length === 0) return null
  const middle = Math.floor(measured.length / 2)
  return measured.length % 2 ? measured[middle] : Math.round((measured[middle - 1] + measured[middle]) / 2)
}

/** The stage's median over the turns. */
export const medianOf = (turns: readonly TurnLatency[], stage: Stage) => median(turns.map((t) => t[stage]))

/** Milliseconds as a short figure: "910 ms", "1.42 s"; a dash when the stage was not measured. */
export function formatMs(ms: number | null | undefined): string {
  if (typeof ms !== 'number') return '—'
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(2)} s`
}

/** One row per turn, in turn order; a later report of a turn replaces an earlier one. */
export function mergeTurns(...lists: readonly (readonly TurnLatency[])[]): TurnLatency[] {
  const byTurn = new Map<number, TurnLatency>()
  for (const list of lists) for (const turn of list) byTurn.set(turn.turn, turn)
  return [...byTurn.values()].sort((a, b) => a.turn - b.turn)
}

/** The call's turns: stored ones, plus (with `live`) each `turn-latency` event for this call. */
export function useTurnLatencies(callId: string, { live = false }: { live?: boolean } = {}) {
  const stored = useQuery({ ...latencyQuery(callId), enabled: callId !== '' })
  const [heard, setHeard] = useState<{ callId: string; turns: TurnLatency[] }>({ callId, turns: [] })
  useSocketEvent(live && callId ? TURN_LATENCY_EVENT : null, ({ callId: from, ...turn }) => {
    if (from !== callId) return
    setHeard((current) => ({ callId, turns: mergeTurns(current.callId === callId ? current.turns : [], [turn]) }))
  })
  const turns = mergeTurns(stored.data ?? [], heard.callId === callId ? heard.turns : [])
  return { turns, loading: stored.isPending && turns.length === 0, error: stored.isError ? stored.error.message : null }
}
