/** Send-call screen (spec sections 2, 4, 5, 8): prompt and voice settings, the live transcript,
 * call settings with the balance, and the 2 latest calls. */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { CalendarClock, Eraser, Info, Pause, Phone, PhoneOff, Play, Timer } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Link } from 'react-router'
import { useForm, useWatch, type FieldErrors } from 'react-hook-form'
import { Button } from '@/components/ui/button'
import { Slider } from '@/components/ui/slider'
import { Card, Skeleton, Spinner } from '@/components/ui/card'
import { BACKGROUNDS, BACKGROUND_VALUES, DEFAULT_VOICE, VOICEMAIL_ACTIONS, VOICEMAIL_VALUES } from '@/lib/callSettings'
import { placeholders } from '@/lib/variables'
import { agentQuery, agentsQuery, AGENTS_MAX } from '@/components/agents/api'
import { cn } from '@/lib/cn'
import { balanceTextClass, formatClock, formatCurrency, formatTimer, requiredBalance } from '@/lib/format'
import { ApiError, messageOf } from '@/lib/api'
import { useRealtime } from '@/lib/realtime'
import { getUser } from '@/lib/session'
import { applyServerErrors } from '@/lib/forms'
import { BILLING_PATH } from '@/lib/billing'
import { usePhoneRegion } from '@/lib/clientConfig'
import { errorId, fieldAria, hintId } from '@/components/ui/fieldAria'
import { notify } from '@/lib/toast'
import { callsApi, statsQuery, voicesQuery, type SendCallBody } from './api'
import { refreshCallLists } from '@/components/calls/useCallListUpdates'
import { useLiveCall } from './useLiveCall'
import { RecentCalls } from '@/components/calls/RecentCalls'
import { DEFAULT_LANGUAGE, languagesQuery } from '@/components/calls/api'
import { LanguageField } from '@/components/calls/LanguageField'
import { voicesOf } from '@/components/calls/languages'
import { TurnLatencies } from '@/components/calls/TurnLatencies'
import { useUserTimeZone } from '@/components/account/useTimeZone'
import { formatInZone } from '@/lib/timezone'

/** The phone-number rules (libphonenumber's metadata, about 29 KB gzip), loaded when a number is
 * first checked or tidied, not with the page (issue 26: Send Call's first load under 200 KB). */
const loadPhone = () => import('@/lib/phone')

/** The call's settings. They are checked with react-hook-form's own field rules (the sliders and
 * lists cannot hold a wrong value; the texts' rules are below), not a schema library: that keeps
 * zod, about 17 KB gzip, out of Send Call's first load. */
interface SendCallForm {
  phone: string
  prompt: string
  voice: string | null
  /** The call's language (GET languages); the voices offered are the ones that speak it. */
  language: string
  temperature: number
  interruption: number
  background: (typeof BACKGROUND_VALUES)[number]
  maxDuration: number
  waitGreeting: boolean
  /** The saved agent the call starts from ('' for none). */
  agentId: string
  firstSentence: string
  voicemailAction: (typeof VOICEMAIL_VALUES)[number]
  voicemailMessage: string
}
const PROMPT_SHORT = 'The prompt must be at least 10 characters long'
const TEXT_MAX = 1000
/** The fields in the spec's order: a refused send names the first problem (the number first,
 * then the prompt), whatever order the checks finished in. */
const FIELD_ORDER: (keyof SendCallForm)[] = ['phone', 'prompt', 'voice', 'language', 'temperature', 'interruption', 'background', 'maxDuration', 'waitGreeting', 'agentId', 'firstSentence', 'voicemailAction', 'voicemailMessage']
/** The server's field names (a 422's `errors`) as the form's. */
const SERVER_FIELDS: Partial<Record<string, keyof SendCallForm>> = {
  phone: 'phone',
  prompt: 'prompt',
  voice: 'voice',
  max_duration: 'maxDuration',
  first_sentence: 'firstSentence',
  voicemail_message: 'voicemailMessage',
}

/** The {{variables}} the call's texts use (a hang-up leaves no voicemail message). */
function usedVariables(form: Pick<SendCallForm, 'prompt' | 'firstSentence' | 'voicemailAction' | 'voicemailMessage'>): string[] {
  return placeholders(form.prompt, form.firstSentence, form.voicemailAction === 'leave_message' ? form.voicemailMessage : null)
}
/** The longest max duration (whole minutes, at most 120) a balance can hold. */
const coveredMinutes = (balance: number) => Math.min(120, Math.floor((balance + 1e-9) / requiredBalance(1)))

/** A calling-hours refusal (HTTP 400 with `next_open_at`): its message and the next opening. */
function windowRefusalOf(error: unknown): { message: string; nextOpenAt: string } | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null
  const next = error.body.next_open_at
  return typeof next === 'string' && next ? { message: error.message, nextOpenAt: next } : null
}

const prefersReducedMotion = () => typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches

const DEFAULTS: SendCallForm = {
  phone: '',
  prompt: '',
  voice: null,
  language: DEFAULT_LANGUAGE,
  temperature: 0.7,
  interruption: 100,
  background: 'null',
  maxDuration: 30,
  waitGreeting: false,
  agentId: '',
  firstSentence: '',
  voicemailAction: 'leave_message',
  voicemailMessage: '',
}
export function SendCallPage() {
  const user = getUser()
  const userId = user?.id ?? 0
  const voices = useQuery(voicesQuery)
  const languages = useQuery(languagesQuery)
  const stats = useQuery(statsQuery(userId))

  const region = usePhoneRegion()
  /** The number's rule: a number without "+" is read in the server's default region. */
  const phoneRule = async (value: string) => (await loadPhone()).sendCallPhoneProblem(value, region) ?? true
  const {
    register,
    handleSubmit,
    setValue,
    setError,
    control,
    reset,
    getValues,
    formState: { errors },
  } = useForm<SendCallForm>({ defaultValues: DEFAULTS })
  /** Show the number as it will be dialled: "(555) 123-0000" becomes "+15551230000". */
  const tidyShown = async (value: string) => {
    const tidied = (await loadPhone()).tidyPhone(value, region)
    if (tidied && tidied !== value) setValue('phone', tidied, { shouldValidate: Boolean(errors.phone) })
    return tidied ?? value
  }
  /** "Please add funds": the refusal, with the way to the Billing page beside the balance. */
  const [fundsProblem, setFundsProblem] = useState<string | null>(null)
  const [prompt, voice, temperature, interruption, phone, maxDuration, firstSentence, voicemailAction, voicemailMessage, agentId, language] = useWatch({
    control,
    name: ['prompt', 'voice', 'temperature', 'interruption', 'phone', 'maxDuration', 'firstSentence', 'voicemailAction', 'voicemailMessage', 'agentId', 'language'],
  })
  const variableNames = usedVariables({ prompt, firstSentence, voicemailAction, voicemailMessage })
  /** Values of the {{variables}} by name (kept beside the form: a name may hold dots). */
  const [variables, setVariables] = useState<Record<string, string>>({})
  const [variablesProblem, setVariablesProblem] = useState<string | null>(null)
  const queryClient = useQueryClient()
  const [loadingAgent, setLoadingAgent] = useState(false)
  /** Fill the form with a saved agent's settings (still editable); '' keeps the form as it is. */
  const startFrom = async (id: string) => {
    if (!id) return setValue('agentId', '')
    setLoadingAgent(true)
    try {
      const agent = await queryClient.fetchQuery(agentQuery(id))
      const current = getValues()
      reset({
        ...current,
        agentId: agent.id,
        prompt: agent.prompt,
        voice: agent.voice,
        language: agent.language,
        temperature: agent.temperature,
        interruption: agent.interruption_threshold,
        background: agent.background_audio,
        maxDuration: agent.max_duration,
        waitGreeting: agent.wait_for_greeting,
        firstSentence: agent.first_sentence ?? '',
        voicemailAction: agent.voicemail_action,
        voicemailMessage: agent.voicemail_message ?? '',
      })
    } catch (error) {
      notify.error(messageOf(error, 'Failed to load the agent'))
    } finally {
      setLoadingAgent(false)
    }
  }
  const setVoice = (name: string) => setValue('voice', name)
  const speaking = voices.data ? voicesOf(voices.data, language) : undefined
  /** A new language keeps the voice when it speaks it, else its first voice is taken. */
  const setLanguage = (code: string) => {
    setValue('language', code)
    if (voice && !voicesOf(voices.data ?? [], code).some((v) => v.name === voice)) setValue('voice', null)
  }
  const [balance, setBalance] = useState<number | null>(null)
  const [sending, setSending] = useState(false)
  const timeZone = useUserTimeZone()
  /** The transcript panel: brought into view (and focused) when a call starts. */
  const transcriptPanel = useRef<HTMLDivElement | null>(null)
  /** What the server said about the call just placed (the sandbox's calling-hours notice). */
  const [notice, setNotice] = useState<string | null>(null)
  /** The last request sent, re-sent with `start_at` by "Call when the window opens". */
  const lastBody = useRef<SendCallBody | null>(null)
  const [windowRefusal, setWindowRefusal] = useState<{ message: string; nextOpenAt: string } | null>(null)
  const [scheduling, setScheduling] = useState(false)
  const [scheduled, setScheduled] = useState<{ callId: string; to: string; at: string } | null>(null)
  const call = useLiveCall(userId, {
    onPickedUp: (live) => {
      // The call is the user's again: its settings show, locked, as when it was placed.
      reset({
        phone: live.to,
        prompt: live.prompt,
        voice: live.voice,
        language: live.language,
        temperature: live.temperature,
        interruption: live.interruption_threshold,
        background: live.background_audio,
        maxDuration: live.max_duration,
        waitGreeting: live.wait_for_greeting,
        agentId: '',
        firstSentence: '',
        voicemailAction: 'leave_message',
        voicemailMessage: '',
      })
      notify.info(`Your call to ${live.to} is still in progress.`)
    },
  })
  const { active, inCall, lines } = call

  const chosenVoice = voice ?? speaking?.[0]?.name ?? DEFAULT_VOICE
  const shownBalance = balance ?? stats.data?.balance ?? null

  /** A balance that cannot hold the default 30 minutes starts the max duration at the most it
   * covers (at least 1), once, unless the field was already set (by an agent or a call picked
   * up): a starter credit places its first call without touching the form. */
  const fitDone = useRef(false)
  const statsBalance = stats.data?.balance
  useEffect(() => {
    if (fitDone.current || statsBalance === undefined || active) return
    fitDone.current = true
    if (getValues('maxDuration') !== DEFAULTS.maxDuration || statsBalance >= requiredBalance(DEFAULTS.maxDuration)) return
    setValue('maxDuration', Math.max(1, coveredMinutes(statsBalance)))
  }, [statsBalance, active, getValues, setValue])
  /** The max duration is what the balance holds at most, short of the default: the field says so. */
  const fittedMinutes = shownBalance !== null && shownBalance < requiredBalance(DEFAULTS.maxDuration) ? coveredMinutes(shownBalance) : 0
  const fitted = !active && fittedMinutes >= 1 && maxDuration === fittedMinutes && shownBalance !== null ? { minutes: fittedMinutes, balance: shownBalance } : null

  useEffect(() => {
    if (voices.isError) notify.error(voices.error.message || 'Failed to load voices')
  }, [voices.isError, voices.error])
  useEffect(() => {
    if (stats.isError) notify.error('Failed to fetch your balance')
  }, [stats.isError])

  useRealtime({
    onBalanceUpdate: (event) => {
      if (event.userId === userId) setBalance(event.newBalance)
    },
    onError: (kind) => {
      if (kind === 'balance') notify.error('Failed to receive balance updates', 'Socket Error')
    },
  })

  const refuse = (errors: FieldErrors<SendCallForm>) => {
    const first = FIELD_ORDER.map((name) => errors[name]).find((error) => error?.message)
    if (first?.message) notify.error(first.message, 'Validation Error')
  }

  const send = async (form: SendCallForm) => {
    const names = usedVariables(form)
    const missing = names.filter((name) => !variables[name]?.trim())
    setVariablesProblem(null)
    if (missing.length) {
      const problem = `Fill in ${missing.map((name) => `{{${name}}}`).join(', ')} to send this call.`
      setVariablesProblem(problem)
      return notify.error(problem, 'Validation Error')
    }
    const required = requiredBalance(form.maxDuration)
    const available = shownBalance ?? 0
    setFundsProblem(null)
    if (available < required) {
      const problem = `Insufficient balance to make this call. Required: $${required.toFixed(2)}, Available: $${available.toFixed(2)}. Please add funds.`
      setFundsProblem(problem)
      return notify.error(problem, 'Balance Error')
    }
    const phone = await tidyShown(form.phone)
    call.clear()
    setNotice(null)
    setWindowRefusal(null)
    setScheduled(null)
    setSending(true)
    try {
      const body: SendCallBody = {
        userId,
        phone,
        prompt: form.prompt.trim(),
        max_duration: form.maxDuration,
        voice: form.voice ?? chosenVoice,
        language: form.language,
        waitGreeting: form.waitGreeting,
        temperature: form.temperature,
        interruption_threshold: form.interruption,
        background_audio: form.background,
      }
      const voicemailMessage = form.voicemailAction === 'hangup' ? '' : form.voicemailMessage.trim()
      if (form.agentId) {
        // From an agent every text is sent as shown: an emptied one means none for this call.
        Object.assign(body, { agentId: form.agentId, first_sentence: form.firstSentence.trim(), voicemail_action: form.voicemailAction, voicemail_message: voicemailMessage })
      } else {
        if (form.firstSentence.trim()) body.first_sentence = form.firstSentence.trim()
        if (form.voicemailAction === 'hangup') body.voicemail_action = 'hangup'
        if (voicemailMessage) body.voicemail_message = voicemailMessage
      }
      if (names.length) body.variables = Object.fromEntries(names.map((name) => [name, (variables[name] ?? '').trim()]))
      lastBody.current = body
      const result = await callsApi.send(body)
      if (!result.callId) {
        notify.error('Failed to track call status')
        return
      }
      call.started(result.callId)
      setBalance(result.balance)
      setNotice(result.notice ?? null)
      showTranscript()
      const projected = available - required
      if (projected < 1) notify.warning(`Your balance is low after this call: $${projected.toFixed(2)}. Consider adding funds.`)
      else notify.info(`Balance sufficient: $${projected.toFixed(2)} available.`)
    } catch (error) {
      applyServerErrors(error, setError, [], SERVER_FIELDS)
      if (error instanceof ApiError && error.status === 402) setFundsProblem(error.message)
      setWindowRefusal(windowRefusalOf(error))
      notify.error(messageOf(error, 'Failed to initiate call'))
    } finally {
      setSending(false)
    }
  }

  /** The call is placed: its transcript comes into view (on a phone it is above the button) and
   * takes the focus the disabled button gives up, so a keyboard user is where the call is. */
  const showTranscript = () => {
    const panel = transcriptPanel.current
    if (!panel) return
    panel.scrollIntoView?.({ block: 'start', behavior: prefersReducedMotion() ? 'auto' : 'smooth' })
    panel.focus({ preventScroll: true })
  }

  /** "Call when the window opens": the refused request again, scheduled for the next opening. */
  const scheduleAtOpening = async () => {
    const body = lastBody.current
    if (!body || !windowRefusal) return
    setScheduling(true)
    try {
      const result = await callsApi.send({ ...body, start_at: windowRefusal.nextOpenAt })
      setWindowRefusal(null)
      setBalance(result.balance)
      const at = result.scheduled_for ?? windowRefusal.nextOpenAt
      setScheduled({ callId: result.callId, to: body.phone, at })
      refreshCallLists(queryClient, userId)
      notify.success(`Call to ${body.phone} scheduled for ${formatInZone(at, timeZone)} (${timeZone}).`)
    } catch (error) {
      notify.error(messageOf(error, 'Failed to initiate call'))
    } finally {
      setScheduling(false)
    }
  }

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

  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Send Call</h1>
        <p className="mt-1 text-sm text-slate-500">Write a prompt, pick a voice and a number; watch the conversation live.</p>
      </header>
      <div className="grid gap-6 lg:grid-cols-2 2xl:grid-cols-3">
        <Card className="min-w-0 space-y-5 p-5">
          <h2 className="text-lg font-semibold text-slate-900">Prompt</h2>
          <AgentPicker value={agentId} onChange={(id) => void startFrom(id)} disabled={active || loadingAgent} />
          <div>
            <label htmlFor="prompt" className="text-sm font-medium text-slate-700">
              What should the agent do?
            </label>
            <textarea
              id="prompt"
              {...register('prompt', { validate: (value) => value.trim().length >= 10 || PROMPT_SHORT })}
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
          {variableNames.length > 0 && (
            <fieldset className="space-y-3 rounded-lg bg-slate-50 p-4" data-testid="call-variables">
              <legend className="sr-only">Variables</legend>
              <p className="text-sm font-medium text-slate-700">Variables for this call</p>
              {variableNames.map((name) => (
                <div key={name}>
                  <label htmlFor={`variable-${name}`} className="font-mono text-xs text-slate-600">{`{{${name}}}`}</label>
                  <input
                    id={`variable-${name}`}
                    value={variables[name] ?? ''}
                    onChange={(e) => setVariables((current) => ({ ...current, [name]: e.target.value }))}
                    disabled={active}
                    maxLength={1000}
                    className="mt-1 h-9 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200 disabled:bg-slate-50"
                  />
                </div>
              ))}
              {variablesProblem && (
                <p role="alert" className="text-xs font-medium text-rose-600">
                  {variablesProblem}
                </p>
              )}
            </fieldset>
          )}
          <div>
            <label htmlFor="first-sentence" className="text-sm font-medium text-slate-700">
              First sentence (optional)
            </label>
            <input
              id="first-sentence"
              {...register('firstSentence', { maxLength: { value: TEXT_MAX, message: 'The first sentence must be 1000 characters or less.' } })}
              disabled={active}
              maxLength={1000}
              placeholder="Hi, this is Sarah from Bright Dental."
              className="mt-1 h-10 w-full rounded-lg border border-slate-300 px-3 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200 disabled:bg-slate-50"
            />
          </div>
          <div>
            <label htmlFor="voicemail-action" className="text-sm font-medium text-slate-700">
              When voicemail answers
            </label>
            <select id="voicemail-action" {...register('voicemailAction')} disabled={active} className="mt-1 h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm disabled:bg-slate-50">
              {VOICEMAIL_ACTIONS.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </select>
            {voicemailAction === 'leave_message' && (
              <textarea
                aria-label="Voicemail message"
                {...register('voicemailMessage', { maxLength: { value: TEXT_MAX, message: 'The voicemail message must be 1000 characters or less.' } })}
                disabled={active}
                rows={2}
                maxLength={1000}
                placeholder="Voicemail message (optional; a short default when empty)"
                className="mt-2 w-full rounded-lg border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200 disabled:bg-slate-50"
              />
            )}
          </div>
          {languages.data && <LanguageField id="call-language" languages={languages.data} value={language} onChange={setLanguage} disabled={active} />}
          <VoicePicker voices={speaking} loading={voices.isPending} value={chosenVoice} onChange={setVoice} disabled={active} />
          <Slider id="temperature" label="Temperature" min={0} max={1} step={0.1} field={register('temperature', { valueAsNumber: true })} disabled={active} display={temperature.toFixed(1)} />
          <Slider
            id="interruption"
            label="Interruption tolerance"
            min={50}
            max={200}
            step={10}
            field={register('interruption', { valueAsNumber: true })}
            disabled={active}
            display={`${interruption} ms`}
          />
          <div>
            <label htmlFor="background" className="text-sm font-medium text-slate-700">
              Background audio
            </label>
            <select
              id="background"
              {...register('background')}
              disabled={active}
              className="mt-1 h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm disabled:bg-slate-50"
            >
              {BACKGROUNDS.map((b) => (
                <option key={b.value} value={b.value}>
                  {b.label}
                </option>
              ))}
            </select>
          </div>
        </Card>

        <Card
          ref={transcriptPanel}
          tabIndex={-1}
          role="region"
          aria-labelledby="transcript-heading"
          data-testid="transcript-panel"
          className="flex min-h-[28rem] min-w-0 scroll-mt-20 flex-col focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-400 lg:scroll-mt-6"
        >
          <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-5 py-4">
            <h2 id="transcript-heading" className="text-lg font-semibold text-slate-900">
              Transcript
            </h2>
            <div className="flex flex-wrap items-center gap-2">
              <span className={cn('inline-flex items-center gap-1 rounded-full px-2.5 py-1 text-sm font-semibold tabular-nums', inCall ? 'bg-emerald-50 text-emerald-700' : 'bg-slate-100 text-slate-600')} data-testid="call-timer">
                <Timer className="h-4 w-4" aria-hidden />
                {call.finalDuration ?? formatTimer(call.elapsed)}
              </span>
              <Button variant="ghost" size="sm" onClick={call.clear}>
                <Eraser className="h-4 w-4" aria-hidden /> Clear conversation
              </Button>
            </div>
          </div>
          {notice && (
            <p role="status" data-testid="call-notice" className="mx-5 mt-4 flex gap-2 rounded-lg bg-sky-50 px-3 py-2 text-sm text-sky-900 ring-1 ring-sky-200">
              <Info className="mt-0.5 h-4 w-4 shrink-0 text-sky-600" aria-hidden />
              <span>{notice}</span>
            </p>
          )}
          <div className="flex-1 space-y-3 overflow-y-auto px-5 py-4" aria-live="polite" data-testid="live-transcript">
            {lines.length === 0 ? (
              <p className="py-10 text-center text-sm text-slate-500">{active ? (inCall ? 'Listening…' : 'Calling…') : 'The conversation appears here during a call.'}</p>
            ) : (
              lines.map((line) => (
                <div key={line.id} className={cn('flex', line.isAgent ? 'justify-end' : 'justify-start')}>
                  <div
                    className={cn('max-w-[85%] rounded-2xl px-4 py-2 text-sm', line.isAgent ? 'bg-indigo-600 text-white' : 'bg-slate-100 text-slate-900')}
                    data-speaker={line.isAgent ? 'agent' : 'user'}
                    data-in-flight={line.inFlight || undefined}
                  >
                    <p className="flex items-center justify-between gap-3 text-[11px] font-semibold uppercase tracking-wide opacity-75">
                      <span>{line.isAgent ? 'Agent' : 'User'}</span>
                      <time dateTime={line.timestamp} className="font-normal normal-case tabular-nums">
                        {formatClock(line.timestamp)}
                      </time>
                    </p>
                    <p>
                      {line.text}
                      {line.inFlight && <span className="ml-0.5 inline-block animate-pulse motion-reduce:animate-none" aria-hidden>…</span>}
                    </p>
                  </div>
                </div>
              ))
            )}
          </div>
          {call.callId && <TurnLatencies key={call.callId} callId={call.callId} live className="border-t border-slate-200 px-5 py-4" />}
          {call.callId && !active && (
            <p className="border-t border-slate-200 px-5 py-3 text-sm">
              <Link to={`/dashboard/calls/${call.callId}`} className="font-semibold text-indigo-600 hover:underline" data-testid="finished-call-link">
                Open this call's page
              </Link>{' '}
              <span className="text-slate-500">for its recording, analysis and cost.</span>
            </p>
          )}
        </Card>

        <div className="grid min-w-0 content-start items-start gap-6 lg:col-span-2 lg:grid-cols-2 2xl:col-span-1 2xl:grid-cols-1">
          <Card className="space-y-5 p-5">
            <h2 className="text-lg font-semibold text-slate-900">Call Settings</h2>
            <div className="rounded-lg bg-slate-50 px-4 py-3">
              <div className="flex items-center justify-between">
                <span className="text-sm text-slate-600">
                  {active ? 'Available' : 'Balance'}{' '}
                  <Link to={BILLING_PATH} className="ml-1 text-xs font-semibold text-indigo-600 hover:underline">
                    Add funds
                  </Link>
                </span>
                {shownBalance === null ? (
                  <Skeleton className="h-6 w-20" />
                ) : (
                  <span data-testid="send-balance" className={cn('text-lg font-bold tabular-nums', balanceTextClass(shownBalance))}>
                    {formatCurrency(shownBalance)}
                  </span>
                )}
              </div>
              {active && (
                <p className="mt-1 flex items-center justify-between text-xs text-slate-500" data-testid="send-held">
                  <span>Held for this call</span>
                  <span className="tabular-nums">{formatCurrency(requiredBalance(maxDuration))}</span>
                </p>
              )}
            </div>
            <div>
              <label htmlFor="phone" className="text-sm font-medium text-slate-700">
                Phone number
              </label>
              <input
                id="phone"
                type="tel"
                inputMode="tel"
                autoComplete="tel"
                {...register('phone', { validate: phoneRule, onBlur: (e: { target: HTMLInputElement }) => void tidyShown(e.target.value) })}
                onFocus={() => void loadPhone()}
                {...fieldAria('phone', errors.phone?.message, true)}
                disabled={active}
                placeholder="+15551234567"
                className="mt-1 h-10 w-full rounded-lg border border-slate-300 px-3 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200 disabled:bg-slate-50 aria-[invalid=true]:border-rose-400"
              />
              {errors.phone?.message ? (
                <p id={errorId('phone')} role="alert" className="mt-1 text-xs font-medium text-rose-600">
                  {errors.phone.message}
                </p>
              ) : (
                <p id={hintId('phone')} className="mt-1 text-xs text-slate-500">
                  Any way you write it: "(555) 123-0000" is dialled as +15551230000.
                </p>
              )}
            </div>
            {fundsProblem && (
              <div role="alert" className="rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-700 ring-1 ring-rose-200">
                {fundsProblem}{' '}
                <Link to={BILLING_PATH} className="font-semibold underline underline-offset-2">
                  Add funds on the Billing page
                </Link>
              </div>
            )}
            <Slider
              id="max-duration"
              label="Max duration"
              min={1}
              max={120}
              step={1}
              field={register('maxDuration', { valueAsNumber: true, min: 1, max: 120 })}
              disabled={active}
              display={`${maxDuration} min`}
              describedBy={fitted ? 'max-duration-hold max-duration-fitted' : 'max-duration-hold'}
            />
            <p id="max-duration-hold" className="-mt-3 text-xs text-slate-500">
              Holds {formatCurrency(requiredBalance(maxDuration))} until the call ends; you pay only the minutes used.
            </p>
            {fitted && (
              <p id="max-duration-fitted" className="-mt-3 text-xs text-slate-600" data-testid="max-duration-fitted">
                Set to {fitted.minutes} min, the most your balance of {formatCurrency(fitted.balance)} covers (the usual default is {DEFAULTS.maxDuration} min).
              </p>
            )}
            {!active && shownBalance !== null && shownBalance < requiredBalance(maxDuration) && (
              <p className="-mt-3 text-xs font-medium text-amber-700" data-testid="balance-covers">
                {coveredMinutes(shownBalance) > 0
                  ? `Your balance covers calls of up to ${coveredMinutes(shownBalance)} min: lower the max duration, or `
                  : 'Your balance covers no call yet: '}
                <Link to={BILLING_PATH} className="font-semibold underline underline-offset-2">
                  add funds
                </Link>
                .
              </p>
            )}
            <label className="flex items-center justify-between gap-3 text-sm font-medium text-slate-700">
              Wait for greeting
              <input type="checkbox" role="switch" {...register('waitGreeting')} disabled={active} className="h-5 w-5 accent-indigo-600" />
            </label>
            <div className="flex gap-3">
              <Button className="flex-1" onClick={() => void handleSubmit(send, refuse)()} disabled={active || !phone || sending || scheduling}>
                {sending ? <Spinner className="h-4 w-4" /> : <Phone className="h-4 w-4" aria-hidden />}
                {active ? (inCall ? 'On call' : 'Calling...') : sending ? 'Calling...' : 'Send Call'}
              </Button>
              <Button variant="danger" className="flex-1" onClick={() => void stop()} disabled={!active}>
                <PhoneOff className="h-4 w-4" aria-hidden /> Stop Call
              </Button>
            </div>
            {windowRefusal && !active && (
              <div role="alert" data-testid="window-refusal" className="space-y-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950 ring-1 ring-amber-200">
                <p>{windowRefusal.message}</p>
                <Button variant="secondary" size="sm" onClick={() => void scheduleAtOpening()} disabled={scheduling}>
                  {scheduling ? <Spinner className="h-4 w-4" /> : <CalendarClock className="h-4 w-4" aria-hidden />} Call when the window opens
                </Button>
              </div>
            )}
            {scheduled && (
              <p role="status" data-testid="call-scheduled" className="rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-900 ring-1 ring-emerald-200">
                Your call to {scheduled.to} is scheduled for {formatInZone(scheduled.at, timeZone)} ({timeZone}).{' '}
                <Link to={`/dashboard/calls/${scheduled.callId}`} className="font-semibold underline underline-offset-2">
                  Open its page
                </Link>
              </p>
            )}
          </Card>
          <RecentCalls userId={userId} limit={2} viewAllTo="/dashboard/call-logs" title="Recent Calls" />
        </div>
      </div>
    </div>
  )
}

/** "Start from agent": the user's saved agents; choosing one fills the form with its settings. */
function AgentPicker({ value, onChange, disabled }: { value: string; onChange: (id: string) => void; disabled?: boolean }) {
  const agents = useQuery(agentsQuery(1, AGENTS_MAX))
  const list = agents.data?.data ?? []
  return (
    <div>
      <label htmlFor="agent" className="text-sm font-medium text-slate-700">
        Start from agent
      </label>
      <select
        id="agent"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        disabled={disabled || agents.isPending}
        className="mt-1 h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm disabled:bg-slate-50"
      >
        <option value="">{agents.isPending ? 'Loading agents…' : list.length ? 'No agent: write the prompt here' : 'No saved agents yet'}</option>
        {list.map((agent) => (
          <option key={agent.id} value={agent.id}>
            {agent.name}
          </option>
        ))}
      </select>
      {agents.isError && (
        <p role="alert" className="mt-1 text-xs text-rose-600">
          {messageOf(agents.error, 'Failed to load agents')}
        </p>
      )}
    </div>
  )
}

function VoicePicker({ voices, loading, value, onChange, disabled }: { voices: { name: string; description?: string | null; recording_url: string }[] | undefined; loading: boolean; value: string; onChange: (v: string) => void; disabled?: boolean }) {
  const [playing, setPlaying] = useState<string | null>(null)
  const audio = useRef<HTMLAudioElement | null>(null)

  useEffect(() => () => audio.current?.pause(), [])

  const toggle = async (name: string, url: string) => {
    audio.current?.pause()
    if (playing === name) {
      setPlaying(null)
      return
    }
    const sample = new Audio(url)
    audio.current = sample
    sample.onended = () => setPlaying((current) => (current === name ? null : current))
    setPlaying(name)
    try {
      await sample.play()
    } catch {
      setPlaying(null)
      notify.error('Failed to play voice sample')
    }
  }

  return (
    <fieldset className="min-w-0">
      <legend className="text-sm font-medium text-slate-700">Voice</legend>
      {loading ? (
        <div className="mt-2 space-y-2">
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-10 w-full" />
        </div>
      ) : (
        <ul className="mt-2 max-h-64 space-y-1.5 overflow-y-auto pr-1">
          {(voices ?? []).map((v) => (
            <li key={v.name} className={cn('flex items-center gap-2 rounded-lg px-3 py-2 ring-1 ring-inset', value === v.name ? 'bg-indigo-50 ring-indigo-300' : 'ring-slate-200')}>
              <label className="flex min-w-0 flex-1 cursor-pointer items-center gap-2">
                <input type="radio" name="voice" value={v.name} checked={value === v.name} disabled={disabled} onChange={() => onChange(v.name)} className="accent-indigo-600" />
                <span className="min-w-0">
                  <span className="block text-sm font-semibold text-slate-900">{v.name}</span>
                  <span className="block truncate text-xs text-slate-600">{v.description || 'No description available'}</span>
                </span>
              </label>
              <Button variant="secondary" size="sm" onClick={() => void toggle(v.name, v.recording_url)} aria-label={`${playing === v.name ? 'Stop' : 'Play'} sample of ${v.name}`}>
                {playing === v.name ? <Pause className="h-3.5 w-3.5" aria-hidden /> : <Play className="h-3.5 w-3.5" aria-hidden />}
                {playing === v.name ? 'Stop' : 'Play'}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  )
}
