/** Send Call's first card: the saved agent the call starts from, the prompt and its
 * {{variables}}, the first sentence, what to do at a voicemail, and the voice settings. */
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useWatch, type UseFormReturn } from 'react-hook-form'
import { Card } from '@/components/ui/card'
import { errorId, fieldAria } from '@/components/ui/fieldAria'
import { VOICEMAIL_ACTIONS } from '@/lib/callSettings'
import { messageOf } from '@/lib/api'
import { notify } from '@/lib/toast'
import { agentQuery } from '@/components/agents/api'
import { AgentPicker } from './AgentPicker'
import { FlowChoice } from './FlowChoice'
import { formOfAgent, RULES, usedVariables, type SendCallForm } from './form'
import type { VoiceChoice } from './useVoiceChoice'
import { VariablesSection } from './VariablesSection'
import { VoiceSettings } from './VoiceSettings'

interface Props {
  form: UseFormReturn<SendCallForm>
  voices: VoiceChoice
  /** Values of the {{variables}} by name (kept beside the form: a name may hold dots). */
  variables: Record<string, string>
  onVariable: (name: string, value: string) => void
  variablesProblem: string | null
  /** A call is going on: its settings show, locked. */
  active: boolean
}

export function PromptCard({ form, voices, variables, onVariable, variablesProblem, active }: Props) {
  const [agentId, prompt, firstSentence, voicemailAction, voicemailMessage, flowId, flowVariables] = useWatch({
    control: form.control,
    name: ['agentId', 'prompt', 'firstSentence', 'voicemailAction', 'voicemailMessage', 'flowId', 'flowVariables'],
  })
  const agent = useStartFromAgent(form)
  const { register, formState: { errors } } = form
  return (
    <Card className="min-w-0 space-y-5 p-5">
      <h2 className="text-lg font-semibold text-slate-900">Prompt</h2>
      <AgentPicker value={agentId} onChange={(id) => void agent.startFrom(id)} disabled={active || agent.loading} />
      <FlowChoice form={form} disabled={active} />
      <div>
        <label htmlFor="prompt" className="text-sm font-medium text-slate-700">
          {flowId ? 'Prompt (optional: the flow leads the call)' : 'What should the agent do?'}
        </label>
        <textarea
          id="prompt"
          {...register('prompt', RULES.prompt)}
          {...fieldAria('prompt', errors.prompt?.message)}
          disabled={active}
          rows={7}
          placeholder="You are Sarah from Bright Dental, calling to confirm tomorrow's cleaning at 3 pm…"
          className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200 disabled:bg-slate-50"
        />
        {errors.prompt?.message ? (
          <p id={errorId('prompt')} role="alert" className="mt-1 text-xs font-medium text-rose-600">
            {errors.prompt.message}
          </p>
        ) : (
          <p className="mt-1 text-xs text-slate-500">{prompt.trim().length} characters (at least 10)</p>
        )}
      </div>
      <VariablesSection
        names={usedVariables({ prompt, firstSentence, voicemailAction, voicemailMessage, flowId, flowVariables })}
        values={variables}
        onChange={onVariable}
        problem={variablesProblem}
        disabled={active}
      />
      <CallTexts form={form} leavesMessage={voicemailAction === 'leave_message'} disabled={active} />
      <VoiceSettings form={form} voices={voices} disabled={active} />
    </Card>
  )
}

/** The first sentence, and what the agent does when voicemail answers (with its message). */
function CallTexts({ form: { register }, leavesMessage, disabled }: { form: UseFormReturn<SendCallForm>; leavesMessage: boolean; disabled: boolean }) {
  return (
    <>
      <div>
        <label htmlFor="first-sentence" className="text-sm font-medium text-slate-700">
          First sentence (optional)
        </label>
        <input
          id="first-sentence"
          {...register('firstSentence', RULES.firstSentence)}
          disabled={disabled}
          maxLength={1000}
          placeholder="Hi, this is Sarah from Bright Dental."
          className="mt-1 h-10 w-full rounded-lg border border-slate-300 px-3 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200 disabled:bg-slate-50"
        />
      </div>
      <div>
        <label htmlFor="voicemail-action" className="text-sm font-medium text-slate-700">
          When voicemail answers
        </label>
        <select id="voicemail-action" {...register('voicemailAction')} disabled={disabled} className="mt-1 h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm disabled:bg-slate-50">
          {VOICEMAIL_ACTIONS.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
        {leavesMessage && (
          <textarea
            aria-label="Voicemail message"
            {...register('voicemailMessage', RULES.voicemailMessage)}
            disabled={disabled}
            rows={2}
            maxLength={1000}
            placeholder="Voicemail message (optional; a short default when empty)"
            className="mt-2 w-full rounded-lg border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200 disabled:bg-slate-50"
          />
        )}
      </div>
    </>
  )
}

/** Fill the form with a saved agent's settings (still editable); '' keeps the form as it is. */
function useStartFromAgent({ getValues, reset, setValue }: UseFormReturn<SendCallForm>) {
  const queryClient = useQueryClient()
  const [loading, setLoading] = useState(false)
  const startFrom = async (id: string) => {
    if (!id) return setValue('agentId', '')
    setLoading(true)
    try {
      const agent = await queryClient.fetchQuery(agentQuery(id))
      reset(formOfAgent(getValues(), agent))
    } catch (error) {
      notify.error(messageOf(error, 'Failed to load the agent'))
    } finally {
      setLoading(false)
    }
  }
  return { loading, startFrom }
}
