/** The agent editor's "What the offline agent will say" (docs/flows.md, "The prompt agent as a
 * flow"): the flow the offline brain derived from the saved prompt, as a readable script, and
 * "Edit as flow", which makes a flow of it to correct (the agent stays on its prompt until that
 * flow is published and picked). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Workflow } from 'lucide-react'
import { useNavigate } from 'react-router'
import { Button } from '@/components/ui/button'
import { Card, Skeleton } from '@/components/ui/card'
import { messageOf } from '@/lib/api'
import { notify } from '@/lib/toast'
import { derivedFlowQuery, editAsFlow, scriptOf, type Question } from './derivedFlow'

export function AgentDerivedFlow({ agentId }: { agentId: string | undefined }) {
  return (
    <Card className="space-y-4 p-5" role="region" aria-labelledby="agent-derived-flow">
      <div>
        <h2 id="agent-derived-flow" className="text-lg font-semibold text-slate-900">
          What the offline agent will say
        </h2>
        <p className="mt-0.5 text-sm text-slate-500">The conversation the offline brain reads from the saved prompt, line for line: no hidden script.</p>
      </div>
      {agentId ? <Script agentId={agentId} /> : <p className="text-sm text-slate-500">Save the agent to see what it will say.</p>}
    </Card>
  )
}

function Script({ agentId }: { agentId: string }) {
  const derived = useQuery(derivedFlowQuery(agentId))
  const navigate = useNavigate()
  const client = useQueryClient()
  const edit = useMutation({
    mutationFn: () => editAsFlow(agentId),
    onSuccess: (result) => {
      void client.invalidateQueries({ queryKey: ['flows'] })
      notify.success(`Flow "${result.data.name}" created: publish it, then pick it for the agent`)
      navigate(`/dashboard/flows/${result.data.id}`)
    },
    onError: (error) => notify.error(messageOf(error, 'Failed to make a flow of the prompt')),
  })
  if (derived.isPending) return <Skeleton className="h-32 w-full" />
  if (derived.isError)
    return (
      <p role="alert" className="text-sm text-rose-600">
        {messageOf(derived.error, 'Failed to load what the agent will say')}
      </p>
    )
  const script = scriptOf(derived.data.graph)
  return (
    <div className="space-y-4 text-sm text-slate-700">
      <p className="text-slate-600">
        {derived.data.offline
          ? 'No language model is configured, so this is the script the agent follows on its calls; a question the callee asks it answers from the prompt\'s details.'
          : 'A language model is configured: the agent improvises from the prompt; this is what the offline brain would say.'}
      </p>
      <ol className="list-decimal space-y-3 pl-5" aria-label="The conversation">
        {script.greeting && (
          <li>
            <span className="font-medium">Greeting:</span> “{script.greeting}”
          </li>
        )}
        {script.questions.map((question) => (
          <QuestionItem key={question.id} question={question} />
        ))}
      </ol>
      <div>
        <h3 className="font-medium text-slate-900">Whatever the question</h3>
        <ul className="mt-1 list-disc space-y-1 pl-5" aria-label="Whatever the question">
          {script.always.map((line) => (
            <li key={line.label}>
              {line.label}: “{line.says || 'the question again'}”
            </li>
          ))}
          {script.voicemail && <li>Voicemail: “{script.voicemail}”</li>}
        </ul>
      </div>
      <Button variant="secondary" onClick={() => edit.mutate()} disabled={edit.isPending}>
        <Workflow className="h-4 w-4" aria-hidden /> Edit as flow
      </Button>
    </div>
  )
}

function QuestionItem({ question }: { question: Question }) {
  return (
    <li data-testid="derived-question">
      <span className="font-medium">Asks{question.note ? ` (${question.note})` : ''}:</span> “{question.text}”
      <ul className="mt-1 list-disc space-y-0.5 pl-5 text-slate-600" aria-label={`Answers to “${question.text}”`}>
        {question.answers.map((answer, i) => (
          <li key={i}>
            {answer.label} → {[answer.says && `“${answer.says}”`, answer.then ? `then asks “${answer.then}”` : `${answer.says ? 'and ' : ''}ends the call`].filter(Boolean).join(' ')}
          </li>
        ))}
      </ul>
    </li>
  )
}
