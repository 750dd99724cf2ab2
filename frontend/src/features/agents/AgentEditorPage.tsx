/** The agent editor (/dashboard/agents/new and /dashboard/agents/:agentId): the prompt with its
 * {{variables}}, voice and call settings, voicemail behaviour, the post-call analysis
 * (dispositions and fields to extract) and a default webhook. */
import { zodResolver } from '@hookform/resolvers/zod'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ArrowLeft, Plus, Trash2, X } from 'lucide-react'
import { useState, type KeyboardEvent } from 'react'
import { useFieldArray, useForm, useWatch, type Path, type UseFormReturn } from 'react-hook-form'
import { Link, useNavigate, useParams } from 'react-router'
import { agentKeys, agentQuery, agentsApi, type Agent } from '@/components/agents/api'
import { DEFAULT_LANGUAGE, languagesQuery, voicesQuery, type CallLanguage } from '@/components/calls/api'
import { LanguageField } from '@/components/calls/LanguageField'
import { offerSuiteRun } from '@/components/lab/offer'
import { OwnerTabs } from '@/components/lab/OwnerTabs'
import { voicesOf } from '@/components/calls/languages'
import { PageHeader, Select, TextArea } from '@/components/kit'
import { Button } from '@/components/ui/button'
import { Card, Skeleton, Spinner } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { fieldAria } from '@/components/ui/fieldAria'
import { Input } from '@/components/ui/input'
import { Slider } from '@/components/ui/slider'
import { ApiError, messageOf } from '@/lib/api'
import { BACKGROUNDS, DEFAULT_VOICE, VOICEMAIL_ACTIONS } from '@/lib/callSettings'
import { notify } from '@/lib/toast'
import { placeholders } from '@/lib/variables'
import { TransferSection } from './TransferSection'
import { KeypadSection } from './KeypadSection'
import { AgentToolsSection } from './AgentToolsSection'
import { FlowSection } from './FlowSection'
import { AgentDerivedFlow } from './AgentDerivedFlow'
import { agentSchema, bodyOf, DEFAULT_DISCLOSURE, FIELD_TYPES, formOf, LABEL_MAX, LIST_MAX, SERVER_FIELDS, type AgentForm } from './schema'

export function AgentEditorPage() {
  const { agentId } = useParams()
  const agent = useQuery({ ...agentQuery(agentId ?? ''), enabled: Boolean(agentId) })
  const voices = useQuery(voicesQuery)
  const languages = useQuery(languagesQuery)
  const title = agentId ? 'Edit agent' : 'New agent'
  const back = (
    <Button variant="secondary" asChild>
      <Link to="/dashboard/agents">
        <ArrowLeft className="h-4 w-4" aria-hidden /> All agents
      </Link>
    </Button>
  )

  if (agentId && agent.isError)
    return (
      <div className="space-y-6">
        <PageHeader title={title} action={back} />
        <Card className="p-6">
          <p role="alert" className="text-sm text-rose-600">
            {messageOf(agent.error, 'Failed to load the agent')}
          </p>
        </Card>
      </div>
    )
  if ((agentId && agent.isPending) || voices.isPending || languages.isPending)
    return (
      <div className="space-y-6" aria-busy>
        <PageHeader title={title} subtitle="Write {{name}} in the texts for what changes per call: Send Call asks for each value." action={back} />
        {agentId && <OwnerTabs owner={{ kind: 'agent', id: agentId }} current="settings" />}
        <Card className="space-y-4 p-5">
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-40 w-full" />
          <Skeleton className="h-10 w-2/3" />
        </Card>
      </div>
    )
  const allVoices = voices.data ?? []
  // Should the languages fail to load, the server's default (English) with every voice.
  const offered = languages.data ?? [{ code: DEFAULT_LANGUAGE, name: 'English', voices: allVoices.map((v) => v.name) }]
  return (
    <div className="space-y-6">
      <PageHeader title={title} subtitle="Write {{name}} in the texts for what changes per call: Send Call asks for each value." action={back} />
      {agentId && <OwnerTabs owner={{ kind: 'agent', id: agentId }} current="settings" />}
      <AgentEditor key={agentId ?? 'new'} agent={agentId ? (agent.data ?? null) : null} voices={allVoices} languages={offered} />
      <AgentToolsSection agentId={agentId} />
      <AgentDerivedFlow agentId={agentId} />
    </div>
  )
}

function AgentEditor({ agent, voices, languages }: { agent: Agent | null; voices: { name: string; language?: string }[]; languages: CallLanguage[] }) {
  const navigate = useNavigate()
  const client = useQueryClient()
  const form = useForm<AgentForm>({ resolver: zodResolver(agentSchema), defaultValues: formOf(agent, voicesOf(voices, DEFAULT_LANGUAGE)[0]?.name ?? DEFAULT_VOICE) })
  const {
    register,
    handleSubmit,
    control,
    setValue,
    setError,
    formState: { errors },
  } = form
  const [prompt, firstSentence, voicemailMessage, voicemailAction, dispositions] = useWatch({
    control,
    name: ['prompt', 'first_sentence', 'voicemail_message', 'voicemail_action', 'dispositions'],
  })
  const variables = placeholders(prompt, firstSentence, voicemailAction === 'leave_message' ? voicemailMessage : null)

  const save = useMutation({
    mutationFn: (form: AgentForm) => (agent ? agentsApi.update(agent.id, bodyOf(form)) : agentsApi.create(bodyOf(form))),
    onSuccess: (result) => {
      client.setQueryData(agentKeys.one(result.data.id), result.data)
      void client.invalidateQueries({ queryKey: agentKeys.all })
      notify.success(agent ? 'Agent saved' : 'Agent created')
      if (result.notice) notify.warning(result.notice, 'A private webhook address')
      navigate('/dashboard/agents')
      if (agent) void offerSuiteRun(client, { kind: 'agent', id: agent.id }, navigate)
    },
    onError: (error) => {
      if (error instanceof ApiError) {
        for (const [key, messages] of Object.entries(error.errors)) {
          const top = key.split('.')[0] as keyof AgentForm
          if (SERVER_FIELDS.includes(top) && messages[0]) setError(key as Path<AgentForm>, { message: messages[0] })
        }
      }
      notify.error(messageOf(error, 'Failed to save the agent'))
    },
  })

  return (
    <form noValidate onSubmit={(e) => void handleSubmit((form) => save.mutate(form))(e)} className="grid gap-6 xl:grid-cols-2">
      <Card className="min-w-0 space-y-5 p-5">
        <h2 className="text-lg font-semibold text-slate-900">Agent</h2>
        <Field id="agent-name" label="Name" error={errors.name?.message}>
          <Input id="agent-name" {...register('name')} maxLength={120} {...fieldAria('agent-name', errors.name?.message)} placeholder="Appointment reminder" />
        </Field>
        <Field
          id="agent-prompt"
          label="Prompt"
          error={errors.prompt?.message}
          hint={`${prompt.trim().length} characters (at least 10)`}
        >
          <TextArea id="agent-prompt" rows={9} {...register('prompt')} {...fieldAria('agent-prompt', errors.prompt?.message, true)} placeholder="You are Sarah from Bright Dental, calling {{name}} to confirm the cleaning on {{day}}…" />
        </Field>
        <div data-testid="agent-variables" className="rounded-lg bg-slate-50 px-4 py-3 text-sm">
          <p className="font-medium text-slate-700">Variables</p>
          {variables.length ? (
            <ul className="mt-2 flex flex-wrap gap-1.5">
              {variables.map((name) => (
                <li key={name} className="rounded-full bg-indigo-50 px-2.5 py-0.5 font-mono text-xs text-indigo-700 ring-1 ring-inset ring-indigo-200">
                  {`{{${name}}}`}
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-1 text-xs text-slate-500">None: write {'{{name}}'} in the prompt, first sentence or voicemail message for a value given per call.</p>
          )}
        </div>
        <Field id="agent-first-sentence" label="First sentence (optional)" error={errors.first_sentence?.message} hint="Spoken first, as written.">
          <Input id="agent-first-sentence" {...register('first_sentence')} maxLength={1000} {...fieldAria('agent-first-sentence', errors.first_sentence?.message, true)} placeholder="Hi {{name}}, this is Sarah from Bright Dental." />
        </Field>
        <Field id="agent-disclosure" label="AI disclosure" error={errors.disclosure?.message} hint="Said in the first turn of every call, after the introduction. It must say the caller is an AI; the recording notice is added when left out. Empty: the default.">
          <Input id="agent-disclosure" {...register('disclosure')} maxLength={300} {...fieldAria('agent-disclosure', errors.disclosure?.message, true)} placeholder={DEFAULT_DISCLOSURE} />
        </Field>
        <AgentVoiceSettings form={form} voices={voices} languages={languages} />
      </Card>

      <div className="min-w-0 space-y-6">
        <FlowSection form={form} />
        <VoicemailCard form={form} leavesMessage={voicemailAction === 'leave_message'} />
        <TransferSection form={form} />
        <KeypadSection form={form} />

        <Card className="space-y-5 p-5">
          <h2 className="text-lg font-semibold text-slate-900">After the call</h2>
          <Field id="agent-summary-prompt" label="Summary instruction (optional)" error={errors.summary_prompt?.message}>
            <TextArea id="agent-summary-prompt" rows={3} {...register('summary_prompt')} {...fieldAria('agent-summary-prompt', errors.summary_prompt?.message)} maxLength={2000} placeholder="Say whether the appointment was confirmed and any new time." />
          </Field>
          <Dispositions values={dispositions} onChange={(next) => setValue('dispositions', next, { shouldValidate: true })} error={errors.dispositions?.message ?? errors.dispositions?.root?.message} />
          <ExtractionFields form={form} />
        </Card>

        <Card className="space-y-4 p-5">
          <h2 className="text-lg font-semibold text-slate-900">Webhook</h2>
          <Field id="agent-webhook" label="Webhook URL (optional)" error={errors.webhook_url?.message} hint="This agent's call events are also sent here.">
            <Input id="agent-webhook" type="url" {...register('webhook_url')} maxLength={2048} {...fieldAria('agent-webhook', errors.webhook_url?.message, true)} placeholder="https://example.com/hooks/calls" />
          </Field>
        </Card>

        <div className="flex justify-end gap-3">
          <Button variant="secondary" asChild>
            <Link to="/dashboard/agents">Cancel</Link>
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending && <Spinner className="h-4 w-4" />} {agent ? 'Save agent' : 'Create agent'}
          </Button>
        </div>
      </div>
    </form>
  )
}

/** The call's language, the voice (of those that speak it), temperature, interruption tolerance,
 * background audio, max duration and the greeting wait. */
function AgentVoiceSettings({ form: { register, control, setValue, formState: { errors } }, voices, languages }: { form: UseFormReturn<AgentForm>; voices: { name: string; language?: string }[]; languages: CallLanguage[] }) {
  const [temperature, interruption, maxDuration, language, voice] = useWatch({ control, name: ['temperature', 'interruption_threshold', 'max_duration', 'language', 'voice'] })
  const speaking = voicesOf(voices, language).map((v) => v.name)
  /** A new language keeps the voice when it speaks it, else takes the language's first. */
  const chooseLanguage = (code: string) => {
    setValue('language', code, { shouldDirty: true })
    const names = voicesOf(voices, code).map((v) => v.name)
    if (!names.includes(voice) && names[0]) setValue('voice', names[0], { shouldDirty: true })
  }
  return (
    <>
      <LanguageField id="agent-language" languages={languages} value={language} onChange={chooseLanguage} error={errors.language?.message} />
      <Field id="agent-voice" label="Voice" error={errors.voice?.message}>
        <Select id="agent-voice" {...register('voice')} {...fieldAria('agent-voice', errors.voice?.message)}>
          {speaking.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </Select>
      </Field>
      <Slider id="agent-temperature" label="Temperature" min={0} max={1} step={0.1} field={register('temperature', { valueAsNumber: true })} display={temperature.toFixed(1)} />
      <Slider
        id="agent-interruption"
        label="Interruption tolerance"
        min={50}
        max={200}
        step={10}
        field={register('interruption_threshold', { valueAsNumber: true })}
        display={`${interruption} ms`}
      />
      <Field id="agent-background" label="Background audio" error={errors.background_audio?.message}>
        <Select id="agent-background" {...register('background_audio')} {...fieldAria('agent-background', errors.background_audio?.message)}>
          {BACKGROUNDS.map((b) => (
            <option key={b.value} value={b.value}>
              {b.label}
            </option>
          ))}
        </Select>
      </Field>
      <Slider id="agent-max-duration" label="Max duration" min={1} max={120} step={1} field={register('max_duration', { valueAsNumber: true })} display={`${maxDuration} min`} />
      <label className="flex items-center justify-between gap-3 text-sm font-medium text-slate-700">
        Wait for greeting
        <input type="checkbox" role="switch" {...register('wait_for_greeting')} className="h-5 w-5 accent-indigo-600" />
      </label>
    </>
  )
}

/** What the agent does when voicemail answers, and its message. */
function VoicemailCard({ form: { register, formState: { errors } }, leavesMessage }: { form: UseFormReturn<AgentForm>; leavesMessage: boolean }) {
  return (
    <Card className="space-y-4 p-5">
      <h2 className="text-lg font-semibold text-slate-900">Voicemail</h2>
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">When voicemail answers</legend>
        <div className="mt-2 flex flex-wrap gap-4">
          {VOICEMAIL_ACTIONS.map((choice) => (
            <label key={choice.value} className="flex items-center gap-2 text-sm text-slate-700">
              <input type="radio" value={choice.value} {...register('voicemail_action')} className="accent-indigo-600" />
              {choice.label}
            </label>
          ))}
        </div>
      </fieldset>
      {leavesMessage && (
        <Field id="agent-voicemail-message" label="Voicemail message (optional)" error={errors.voicemail_message?.message} hint="A short default message when empty.">
          <TextArea id="agent-voicemail-message" rows={3} {...register('voicemail_message')} maxLength={1000} {...fieldAria('agent-voicemail-message', errors.voicemail_message?.message, true)} />
        </Field>
      )}
    </Card>
  )
}

/** The named values the analysis reads from the conversation: a row each (name, type,
 * description), added and removed here. */
function ExtractionFields({ form: { control, register, formState: { errors } } }: { form: UseFormReturn<AgentForm> }) {
  const fields = useFieldArray({ control, name: 'analysis_schema' })
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium text-slate-700">Fields to extract</legend>
      {fields.fields.length === 0 && <p className="text-xs text-slate-500">None yet: add a named value the analysis should read from the conversation.</p>}
      {fields.fields.map((row, index) => {
        const rowErrors = errors.analysis_schema?.[index]
        return (
          <div key={row.id} className="grid gap-2 rounded-lg ring-1 ring-slate-200 p-3 sm:grid-cols-[1fr_8rem_auto]" data-testid="extraction-field">
            <Field id={`field-${index}-name`} label="Name" error={rowErrors?.name?.message}>
              <Input id={`field-${index}-name`} {...register(`analysis_schema.${index}.name`)} maxLength={LABEL_MAX} {...fieldAria(`field-${index}-name`, rowErrors?.name?.message)} placeholder="new_time" />
            </Field>
            <Field id={`field-${index}-type`} label="Type">
              <Select id={`field-${index}-type`} {...register(`analysis_schema.${index}.type`)}>
                {FIELD_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </Select>
            </Field>
            <div className="flex items-end">
              <Button type="button" variant="ghost" size="icon" aria-label={`Remove field ${index + 1}`} onClick={() => fields.remove(index)}>
                <Trash2 className="h-4 w-4 text-rose-600" aria-hidden />
              </Button>
            </div>
            <div className="sm:col-span-3">
              <Field id={`field-${index}-description`} label="Description" error={rowErrors?.description?.message}>
                <Input id={`field-${index}-description`} {...register(`analysis_schema.${index}.description`)} {...fieldAria(`field-${index}-description`, rowErrors?.description?.message)} maxLength={500} placeholder="The new appointment time, if it moved" />
              </Field>
            </div>
          </div>
        )
      })}
      {(errors.analysis_schema?.message ?? errors.analysis_schema?.root?.message) && (
        <p role="alert" className="text-xs font-medium text-rose-600">
          {errors.analysis_schema?.message ?? errors.analysis_schema?.root?.message}
        </p>
      )}
      <Button type="button" variant="secondary" size="sm" disabled={fields.fields.length >= LIST_MAX} onClick={() => fields.append({ name: '', type: 'string', description: '' })}>
        <Plus className="h-4 w-4" aria-hidden /> Add field
      </Button>
    </fieldset>
  )
}

/** The dispositions as removable tags, with an input that adds one (Enter or the button). */
function Dispositions({ values, onChange, error }: { values: string[]; onChange: (values: string[]) => void; error?: string }) {
  const [text, setText] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const add = () => {
    const value = text.trim()
    if (!value) return
    if (value.length > LABEL_MAX) return setProblem(`Each disposition must be 1 to ${LABEL_MAX} characters long.`)
    if (values.some((v) => v.toLowerCase() === value.toLowerCase())) return setProblem(`The disposition "${value}" is listed twice.`)
    if (values.length >= LIST_MAX) return setProblem(`At most ${LIST_MAX} dispositions.`)
    onChange([...values, value])
    setText('')
    setProblem(null)
  }
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault()
      add()
    }
  }
  return (
    <Field id="agent-disposition" label="Dispositions (the analysis picks one)" error={problem ?? error}>
      {values.length > 0 && (
        <ul className="flex flex-wrap gap-1.5" aria-label="Dispositions">
          {values.map((value) => (
            <li key={value} className="inline-flex items-center gap-1 rounded-full bg-slate-100 py-0.5 pl-2.5 pr-1 text-xs text-slate-700">
              {value}
              <button type="button" aria-label={`Remove ${value}`} className="rounded-full p-0.5 hover:bg-slate-200" onClick={() => onChange(values.filter((v) => v !== value))}>
                <X className="h-3 w-3" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="flex gap-2">
        <Input id="agent-disposition" value={text} onChange={(e) => setText(e.target.value)} onKeyDown={onKey} maxLength={LABEL_MAX + 1} placeholder="confirmed" />
        <Button type="button" variant="secondary" onClick={add} disabled={!text.trim()}>
          Add
        </Button>
      </div>
    </Field>
  )
}
