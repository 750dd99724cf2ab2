/** "Test in text": the saved draft run as a chat, no call placed. The callee's messages go to
 * POST /flows/{id}/test with the state the last answer gave; the agent's lines, the actions it
 * would take and the path (each step and why) come back; the canvas shows where it stands. */
import { useMutation } from '@tanstack/react-query'
import { RotateCcw, Send } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { messageOf } from '@/lib/api'
import { cn } from '@/lib/cn'
import { flowsApi } from './api'
import type { FlowState, TextTurnOut } from './types'

type Entry = { who: 'callee' | 'agent' | 'action' | 'step' | 'end'; text: string }
export interface TestPath {
  current: string | null
  visited: string[]
}

export function TestPanel({ flowId, variables, stale, onPath }: { flowId: string; variables: string[]; stale: boolean; onPath: (path: TestPath) => void }) {
  const [entries, setEntries] = useState<Entry[]>([])
  const [given, setGiven] = useState<Record<string, string>>({})
  const [state, setState] = useState<FlowState | null>(null)
  const [visited, setVisited] = useState<string[]>([])
  const [said, setSaid] = useState('')
  const list = useRef<HTMLOListElement>(null)
  // The newest line in view, as in a chat.
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight
  }, [entries])
  const turn = useMutation({
    mutationFn: (text: string | null) => flowsApi.test(flowId, state ? { state, said: text } : { state: null, said: null, variables: Object.fromEntries(Object.entries(given).filter(([, v]) => v.trim())) }),
    onSuccess: ({ data }: { data: TextTurnOut }, text) => {
      const path = [...visited, ...data.steps.map((s) => s.node_id)]
      setEntries((old) => [
        ...old,
        ...(text ? [{ who: 'callee' as const, text }] : []),
        ...data.steps.map((s) => ({ who: 'step' as const, text: `${s.node_name}${s.reason ? `: ${s.reason}` : ''}${s.captured && Object.keys(s.captured).length ? ` (captured ${Object.entries(s.captured).map(([k, v]) => `${k}=${v}`).join(', ')})` : ''}` })),
        ...data.lines.map((line) => ({ who: 'agent' as const, text: line })),
        ...(data.actions ?? []).map((a) => ({ who: 'action' as const, text: a })),
        ...(data.ended ? [{ who: 'end' as const, text: `The call ends${data.end_reason ? ` (${data.end_reason.replaceAll('_', ' ')})` : ''}` }] : []),
      ])
      setState(data.state)
      setVisited(path)
      setSaid('')
      onPath({ current: data.ended ? null : (data.state.node_id ?? null), visited: path })
    },
  })
  const reset = () => {
    setEntries([])
    setState(null)
    setVisited([])
    turn.reset()
    onPath({ current: null, visited: [] })
  }
  const ended = Boolean(state?.ended)
  return (
    <section aria-labelledby="test-in-text" className="space-y-3">
      <div className="flex items-center justify-between">
        <h2 id="test-in-text" className="text-sm font-semibold text-slate-900">Test in text</h2>
        <Button variant="ghost" size="sm" onClick={reset} disabled={!state && !entries.length}>
          <RotateCcw className="h-4 w-4" aria-hidden /> Reset
        </Button>
      </div>
      {stale && <p className="text-xs text-amber-700">Runs the saved draft: save to test your changes.</p>}
      <ol ref={list} className="max-h-72 space-y-1.5 overflow-y-auto text-sm" aria-live="polite" data-testid="test-transcript">
        {entries.map((entry, i) => (
          <li key={i} className={cn(entry.who === 'callee' && 'ml-8 rounded-lg bg-indigo-600 px-3 py-1.5 text-white', entry.who === 'agent' && 'mr-8 rounded-lg bg-slate-100 px-3 py-1.5 text-slate-900', entry.who === 'step' && 'text-xs text-slate-500', entry.who === 'action' && 'text-xs font-semibold text-emerald-700', entry.who === 'end' && 'text-xs font-semibold text-slate-700')}>
            <span className="sr-only">{{ callee: 'You: ', agent: 'Agent: ', step: 'Step: ', action: 'Action: ', end: '' }[entry.who]}</span>
            {entry.who === 'step' ? `→ ${entry.text}` : entry.text}
          </li>
        ))}
      </ol>
      {turn.isError && (
        <p role="alert" className="text-sm text-rose-600">
          {messageOf(turn.error, 'The test turn failed')}
        </p>
      )}
      {!state && variables.length > 0 && (
        <fieldset className="grid grid-cols-2 gap-2">
          <legend className="mb-1 text-xs text-slate-500">The call's variables</legend>
          {variables.map((name) => (
            <Input key={name} aria-label={`Variable ${name}`} placeholder={name} value={given[name] ?? ''} onChange={(e) => setGiven({ ...given, [name]: e.target.value })} />
          ))}
        </fieldset>
      )}
      {!state ? (
        <Button onClick={() => turn.mutate(null)} disabled={turn.isPending}>
          {turn.isPending && <Spinner className="h-4 w-4" />} Start test
        </Button>
      ) : (
        <form className="flex gap-2" onSubmit={(e) => { e.preventDefault(); if (said.trim()) turn.mutate(said.trim()) }}>
          <Input aria-label="You say" value={said} onChange={(e) => setSaid(e.target.value)} maxLength={1000} disabled={ended || turn.isPending} placeholder={ended ? 'The call has ended: reset to run it again' : 'Type as the callee…'} />
          <Button type="submit" disabled={ended || turn.isPending || !said.trim()} aria-label="Send">
            {turn.isPending ? <Spinner className="h-4 w-4" /> : <Send className="h-4 w-4" aria-hidden />}
          </Button>
        </form>
      )}
    </section>
  )
}
