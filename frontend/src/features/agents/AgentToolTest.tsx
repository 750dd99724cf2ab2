/** Test a saved tool against its endpoint with sample arguments, as a call would call it, and
 * show what came back: the status, the HTTP code, the latency and the start of the answer. */
import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { toolsApi, type AgentTool } from '@/components/agents/tools'
import { TextArea } from '@/components/kit'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { fieldAria } from '@/components/ui/fieldAria'
import { ApiError, messageOf } from '@/lib/api'
import { cn } from '@/lib/cn'

/** Sample arguments from the schema's properties: an empty value of each one's type. */
function sampleOf(tool: AgentTool): string {
  const properties = (tool.parameters as { properties?: Record<string, { type?: string }> }).properties ?? {}
  const empty: Record<string, unknown> = { string: '', number: 0, integer: 0, boolean: false, array: [], object: {} }
  return JSON.stringify(Object.fromEntries(Object.entries(properties).map(([name, p]) => [name, empty[p.type ?? 'string'] ?? ''])), null, 2)
}

export function AgentToolTest({ agentId, tool }: { agentId: string; tool: AgentTool }) {
  const id = `tool-test-${tool.id}`
  const [text, setText] = useState(() => sampleOf(tool))
  const [error, setError] = useState<string>()
  const test = useMutation({
    mutationFn: (args: Record<string, unknown>) => toolsApi.test(agentId, tool.id, args),
    onError: (e) => setError(e instanceof ApiError ? (e.errors.arguments?.[0] ?? messageOf(e, 'Failed to test the tool')) : messageOf(e, 'Failed to test the tool')),
  })
  const run = () => {
    setError(undefined)
    try {
      const args: unknown = JSON.parse(text)
      if (!args || typeof args !== 'object' || Array.isArray(args)) throw new Error()
      test.mutate(args as Record<string, unknown>)
    } catch {
      setError('The sample arguments must be a JSON object.')
    }
  }
  const answer = test.data
  return (
    <div className="space-y-3 rounded-lg bg-slate-50 p-4">
      <Field id={id} label={`Sample arguments for ${tool.name}`} error={error}>
        <TextArea id={id} rows={3} className="font-mono text-xs" value={text} onChange={(e) => setText(e.target.value)} {...fieldAria(id, error)} />
      </Field>
      <Button type="button" size="sm" onClick={run} disabled={test.isPending}>
        {test.isPending && <Spinner className="h-4 w-4" />} Run test
      </Button>
      {answer && (
        <div role="status" aria-label="Test result" className="space-y-1 text-sm">
          <p>
            <span className={cn('font-semibold', answer.status === 'succeeded' ? 'text-emerald-700' : 'text-rose-700')}>{answer.status}</span>
            {answer.status_code != null && <span> · HTTP {answer.status_code}</span>}
            <span> · {answer.latency_ms} ms</span>
          </p>
          {answer.error && <p className="text-rose-700">{answer.error}</p>}
          {answer.excerpt && <pre className="max-h-40 overflow-auto whitespace-pre-wrap rounded bg-white p-2 font-mono text-xs text-slate-700 ring-1 ring-slate-200">{answer.excerpt}</pre>}
        </div>
      )}
    </div>
  )
}
