/** The new-campaign wizard (/dashboard/campaigns/new, and /dashboard/campaigns/:id/setup for a
 * draft): agent and name, contacts with the validation report, schedule with the time zones'
 * preview, limits, and a review with the most it can cost before it starts. Each step saves the
 * draft, so leaving half-way loses nothing. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Check, Upload } from 'lucide-react'
import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { AGENTS_MAX, agentsQuery } from '@/components/agents/api'
import { PageHeader, Select } from '@/components/kit'
import { RefusedRows } from '@/components/panels'
import { Button } from '@/components/ui/button'
import { Card, Spinner } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { ApiError, messageOf } from '@/lib/api'
import { cn } from '@/lib/cn'
import { formatDateTime } from '@/lib/format'
import { notify } from '@/lib/toast'
import { campaignKeys, campaignQuery, campaignsApi, DAYS, RETRY_OUTCOMES, zonesQuery, type Campaign, type CampaignBody, type LoadReport } from './api'
import { counts, dollars, OUTCOME_LABEL } from './labels'
import { BILLING_RULE } from '@/lib/billing'

const STEPS = ['Agent', 'Contacts', 'Schedule', 'Limits', 'Review'] as const
type Errors = Record<string, string | undefined>

const DEFAULTS: CampaignBody = {
  name: '',
  agent_id: '',
  days: [0, 1, 2, 3, 4],
  calling_window: '09:00-20:00',
  concurrency: 3,
  pace_per_minute: 10,
  retries: {
    'no-answer': { attempts: 1, wait_minutes: 60 },
    busy: { attempts: 1, wait_minutes: 15 },
    voicemail: { attempts: 0, wait_minutes: 60 },
    failed: { attempts: 0, wait_minutes: 60 },
  },
  spend_cap: null,
  start_at: null,
  end_at: null,
}

function bodyOf(campaign: Campaign): CampaignBody {
  return {
    name: campaign.name,
    agent_id: campaign.agent_id ?? '',
    days: campaign.days,
    calling_window: campaign.calling_window,
    concurrency: campaign.concurrency,
    pace_per_minute: campaign.pace_per_minute,
    retries: { ...DEFAULTS.retries, ...campaign.retries },
    spend_cap: campaign.spend_cap,
    start_at: campaign.start_at,
    end_at: campaign.end_at,
  }
}

/** The server's field errors, by the field's first name ("retries.busy.attempts" -> "retries"). */
function fieldErrors(error: unknown): Errors {
  if (!(error instanceof ApiError)) return {}
  const out: Errors = {}
  for (const [key, messages] of Object.entries(error.errors)) out[key.split('.')[0]] ??= messages[0]
  return out
}

export function NewCampaignPage() {
  const { campaignId } = useParams()
  const existing = useQuery({ ...campaignQuery(campaignId ?? ''), enabled: Boolean(campaignId) })
  if (campaignId && existing.isPending) return <Spinner />
  if (campaignId && existing.isError) return <p role="alert" className="text-sm text-rose-600">{messageOf(existing.error, 'Failed to load the campaign')}</p>
  const draft = existing.data
  if (draft && draft.state !== 'draft')
    return (
      <Card className="p-6 text-sm text-slate-700">
        This campaign has started: <Link className="text-indigo-700 underline" to={`/dashboard/campaigns/${draft.id}`}>see its progress</Link>.
      </Card>
    )
  return <Wizard draft={draft ?? null} />
}

function Wizard({ draft }: { draft: Campaign | null }) {
  const [step, setStep] = useState(draft ? (counts(draft).total > 0 ? 2 : 1) : 0)
  const [id, setId] = useState(draft?.id ?? null)
  const [body, setBody] = useState<CampaignBody>(draft ? bodyOf(draft) : DEFAULTS)
  const [errors, setErrors] = useState<Errors>({})
  const client = useQueryClient()
  const navigate = useNavigate()

  const save = useMutation({
    mutationFn: (next: CampaignBody) => (id ? campaignsApi.update(id, next) : campaignsApi.create(next)),
    onSuccess: (res) => {
      setId(res.data.id)
      setErrors({})
      client.setQueryData(campaignKeys.one(res.data.id), res.data)
      void client.invalidateQueries({ queryKey: campaignKeys.zones(res.data.id) })
      void client.invalidateQueries({ queryKey: campaignKeys.all, exact: false, refetchType: 'none' })
      setStep((s) => Math.min(s + 1, STEPS.length - 1))
    },
    onError: (error) => {
      const found = fieldErrors(error)
      setErrors(found)
      if (!Object.keys(found).length) notify.error(messageOf(error, 'Failed to save the campaign'))
    },
  })
  const start = useMutation({
    mutationFn: () => campaignsApi.act(id ?? '', 'start'),
    onSuccess: () => {
      notify.success('Campaign started.')
      void client.invalidateQueries({ queryKey: campaignKeys.all })
      navigate(`/dashboard/campaigns/${id}`)
    },
    onError: (error) => notify.error(messageOf(error, 'Failed to start the campaign')),
  })
  const next = (e?: FormEvent) => {
    e?.preventDefault()
    save.mutate(body)
  }
  const set = useCallback((patch: Partial<CampaignBody>) => setBody((b) => ({ ...b, ...patch })), [])

  return (
    <div className="space-y-6">
      <PageHeader title={draft ? `Set up "${draft.name}"` : 'New campaign'} subtitle="Nothing is dialled until you start it on the last step." />
      <Steps current={step} onPick={(s) => id && s < step && setStep(s)} />
      {step === 0 && <AgentStep body={body} set={set} errors={errors} busy={save.isPending} onNext={next} />}
      {step === 1 && id && <ContactsStep campaignId={id} onBack={() => setStep(0)} onNext={() => setStep(2)} />}
      {step === 2 && id && <ScheduleStep campaignId={id} body={body} set={set} errors={errors} busy={save.isPending} onBack={() => setStep(1)} onNext={next} onPreview={() => save.mutate(body, { onSuccess: () => setStep(2) })} />}
      {step === 3 && <LimitsStep body={body} set={set} errors={errors} busy={save.isPending} onBack={() => setStep(2)} onNext={next} />}
      {step === 4 && id && <ReviewStep campaignId={id} busy={start.isPending} onBack={() => setStep(3)} onStart={() => start.mutate()} />}
    </div>
  )
}

function Steps({ current, onPick }: { current: number; onPick: (step: number) => void }) {
  return (
    <ol className="flex flex-wrap gap-2" aria-label="Steps">
      {STEPS.map((label, i) => (
        <li key={label}>
          <button
            type="button"
            onClick={() => onPick(i)}
            aria-current={i === current ? 'step' : undefined}
            className={cn(
              'flex items-center gap-2 rounded-full px-3 py-1 text-sm ring-1 ring-inset',
              i === current ? 'bg-indigo-600 text-white ring-indigo-600' : i < current ? 'bg-white text-indigo-700 ring-indigo-200' : 'bg-white text-slate-500 ring-slate-200',
            )}
          >
            {i < current ? <Check className="h-3.5 w-3.5" aria-hidden /> : <span className="tabular-nums">{i + 1}</span>}
            {label}
          </button>
        </li>
      ))}
    </ol>
  )
}

function StepCard({ title, children, footer }: { title: string; children: ReactNode; footer: ReactNode }) {
  return (
    <Card className="space-y-5 p-5">
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      {children}
      <div className="flex flex-wrap justify-between gap-2 border-t border-slate-100 pt-4">{footer}</div>
    </Card>
  )
}

interface StepProps {
  body: CampaignBody
  set: (patch: Partial<CampaignBody>) => void
  errors: Errors
  busy: boolean
  onNext: (e?: FormEvent) => void
}

function AgentStep({ body, set, errors, busy, onNext }: StepProps) {
  const agents = useQuery(agentsQuery(1, AGENTS_MAX))
  const list = agents.data?.data ?? []
  const first = list[0]?.id
  const [local, setLocal] = useState<Errors>({})
  useEffect(() => {
    if (!body.agent_id && first) set({ agent_id: first })
  }, [body.agent_id, first, set])
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const found: Errors = { name: body.name.trim() ? undefined : 'Give the campaign a name.', agent_id: body.agent_id ? undefined : 'Choose an agent.' }
    setLocal(found)
    if (!found.name && !found.agent_id) onNext()
  }
  return (
    <form onSubmit={submit} noValidate>
      <StepCard title="Agent" footer={<span />}>
        <Field id="campaign-name" label="Campaign name" error={local.name ?? errors.name}>
          <Input id="campaign-name" value={body.name} onChange={(e) => set({ name: e.target.value })} maxLength={120} placeholder="Cleaning reminders, week 48" aria-invalid={Boolean(local.name ?? errors.name)} />
        </Field>
        {agents.isPending ? (
          <Spinner />
        ) : list.length === 0 ? (
          <p className="text-sm text-slate-600">
            A campaign calls with a saved agent. <Link className="text-indigo-700 underline" to="/dashboard/agents/new">Create an agent</Link> first.
          </p>
        ) : (
          <Field id="campaign-agent" label="Agent" error={local.agent_id ?? errors.agent_id} hint="Its prompt, voice and settings make every call; each contact's columns fill its {{variables}}.">
            <Select id="campaign-agent" value={body.agent_id} onChange={(e) => set({ agent_id: e.target.value })}>
              {list.map((agent) => (
                <option key={agent.id} value={agent.id}>
                  {agent.name}
                  {agent.variables.length ? ` (${agent.variables.map((v) => `{{${v}}}`).join(', ')})` : ''}
                </option>
              ))}
            </Select>
          </Field>
        )}
      </StepCard>
      <div className="mt-4 flex justify-end">
        <Button type="submit" disabled={busy || list.length === 0}>
          {busy ? 'Saving…' : 'Continue'}
        </Button>
      </div>
    </form>
  )
}

function ContactsStep({ campaignId, onBack, onNext }: { campaignId: string; onBack: () => void; onNext: () => void }) {
  const picker = useRef<HTMLInputElement>(null)
  const client = useQueryClient()
  const campaign = useQuery(campaignQuery(campaignId))
  const [report, setReport] = useState<LoadReport | null>(null)
  const load = useMutation({
    mutationFn: (file: File) => campaignsApi.load(campaignId, file),
    onSuccess: (res) => {
      setReport(res)
      void client.invalidateQueries({ queryKey: campaignKeys.one(campaignId) })
    },
    onError: (error) => notify.error(error instanceof ApiError ? (error.field('file') ?? error.message) : messageOf(error, 'Failed to load the contacts')),
  })
  const total = campaign.data ? counts(campaign.data).total : 0
  return (
    <StepCard
      title="Contacts"
      footer={
        <>
          <Button variant="secondary" onClick={onBack}>
            Back
          </Button>
          <Button onClick={onNext} disabled={total === 0 || load.isPending}>
            Continue
          </Button>
        </>
      }
    >
      <p className="text-sm text-slate-600">
        A CSV file with a header row: a <code>phone</code> column, any others become the agent's variables (a <code>First Name</code> column fills <code>{'{{first_name}}'}</code>), and an optional <code>timezone</code> column. Numbers without "+" are read as US numbers. Loading again replaces the list.
      </p>
      <input ref={picker} type="file" accept=".csv,text/csv,text/plain" className="sr-only" aria-label="Contacts CSV file" data-testid="contacts-file" onChange={(e) => {
        const file = e.target.files?.[0]
        e.target.value = ''
        if (file) load.mutate(file)
      }} />
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="secondary" onClick={() => picker.current?.click()} disabled={load.isPending}>
          <Upload className="h-4 w-4" aria-hidden /> {load.isPending ? 'Checking the file…' : total ? 'Upload another file' : 'Upload CSV'}
        </Button>
        {total > 0 && !report && <p className="text-sm text-slate-600">{total} contacts loaded.</p>}
      </div>
      {report && <Report report={report} />}
    </StepCard>
  )
}

function Report({ report }: { report: LoadReport }) {
  return (
    <div className="space-y-3 rounded-lg bg-slate-50 p-4 text-sm" role="status" data-testid="load-report">
      <p className="font-medium text-slate-900">
        {report.accepted} {report.accepted === 1 ? 'contact' : 'contacts'} accepted, {report.refused_count} refused.
      </p>
      {report.variables.length > 0 && <p className="text-slate-600">Every row gave the agent's {report.variables.map((v) => `{{${v}}}`).join(', ')}.</p>}
      <RefusedRows rows={report.refused} total={report.refused_count} testId="load-refused" />
      <ZoneMismatches report={report} />
    </div>
  )
}

/** Rows whose `timezone` column names a zone their number does not ring in: said before Start. */
function ZoneMismatches({ report }: { report: LoadReport }) {
  const count = report.zone_mismatch_count ?? 0
  const rows = report.zone_mismatches ?? []
  if (count === 0) return null
  return (
    <div className="rounded-md border border-amber-200 bg-amber-50 p-3 text-amber-900" data-testid="zone-mismatches">
      <p className="font-medium">
        {count} {count === 1 ? 'row names a time zone its number does not' : 'rows name a time zone their number does not'} ring in.
      </p>
      <p className="mt-1">
        The campaign's calling window follows the file's zone; the legal calling hours ({report.calling_hours}) follow the number's own zone, so such a contact is called only while both are open.
      </p>
      <ul className="mt-2 space-y-0.5">
        {rows.map((m) => (
          <li key={m.row}>
            Row {m.row}: <span className="font-mono">{m.phone_number}</span>: the file says {m.file_zone}; the legal rule uses {m.number_zones.join(', ')}.
          </li>
        ))}
      </ul>
      {count > rows.length && <p className="mt-1">…and {count - rows.length} more.</p>}
    </div>
  )
}

/** "2026-11-25T09:00:00Z" <-> the datetime-local input's "2026-11-25T10:00" (the browser's zone). */
const toLocalInput = (iso: string | null | undefined) => {
  if (!iso) return ''
  const d = new Date(iso)
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16)
}
const fromLocalInput = (value: string) => (value ? new Date(value).toISOString() : null)

function ScheduleStep({ campaignId, body, set, errors, busy, onBack, onNext, onPreview }: StepProps & { campaignId: string; onBack: () => void; onPreview: () => void }) {
  const [from, to] = (body.calling_window ?? '09:00-20:00').split('-')
  const days = body.days ?? []
  const toggle = (day: number) => set({ days: days.includes(day) ? days.filter((d) => d !== day) : [...days, day].sort() })
  return (
    <form onSubmit={onNext} noValidate>
      <StepCard
        title="Schedule"
        footer={
          <>
            <Button type="button" variant="secondary" onClick={onBack}>
              Back
            </Button>
            <Button type="submit" disabled={busy || days.length === 0}>
              {busy ? 'Saving…' : 'Continue'}
            </Button>
          </>
        }
      >
        <fieldset>
          <legend className="text-sm font-medium text-slate-700">Days, in the callee's local time</legend>
          <div className="mt-2 flex flex-wrap gap-2">
            {DAYS.map((label, day) => (
              <label key={label} className={cn('cursor-pointer rounded-lg px-3 py-1.5 text-sm ring-1 ring-inset', days.includes(day) ? 'bg-indigo-50 text-indigo-700 ring-indigo-300' : 'bg-white text-slate-600 ring-slate-200')}>
                <input type="checkbox" className="sr-only" checked={days.includes(day)} onChange={() => toggle(day)} />
                {label}
              </label>
            ))}
          </div>
          {days.length === 0 && <p className="mt-1 text-xs font-medium text-rose-600">Choose at least one day.</p>}
          {errors.days && <p role="alert" className="mt-1 text-xs font-medium text-rose-600">{errors.days}</p>}
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="window-from" label="Calls from (callee's local time)" error={errors.calling_window}>
            <Input id="window-from" type="time" value={from} onChange={(e) => set({ calling_window: `${e.target.value}-${to}` })} />
          </Field>
          <Field id="window-to" label="Until">
            <Input id="window-to" type="time" value={to === '24:00' ? '00:00' : to} onChange={(e) => set({ calling_window: `${from}-${e.target.value === '00:00' ? '24:00' : e.target.value}` })} />
          </Field>
          <Field id="start-at" label="Start (optional)" hint="In your own time zone. Empty: when you start it." error={errors.start_at}>
            <Input id="start-at" type="datetime-local" value={toLocalInput(body.start_at)} onChange={(e) => set({ start_at: fromLocalInput(e.target.value) })} />
          </Field>
          <Field id="end-at" label="End (optional)" hint="Contacts not called by then are skipped." error={errors.end_at}>
            <Input id="end-at" type="datetime-local" value={toLocalInput(body.end_at)} onChange={(e) => set({ end_at: fromLocalInput(e.target.value) })} />
          </Field>
        </div>
        <p className="text-xs text-slate-500">The legal calling hours (08:00 to 21:00 in the callee's zone by default) bind every call as well.</p>
        <ZonePreview campaignId={campaignId} onRefresh={onPreview} busy={busy} />
      </StepCard>
    </form>
  )
}

function ZonePreview({ campaignId, onRefresh, busy }: { campaignId: string; onRefresh?: () => void; busy?: boolean }) {
  const zones = useQuery(zonesQuery(campaignId))
  return (
    <div className="space-y-2" data-testid="zone-preview">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-medium text-slate-700">When each time zone's window opens</h3>
        {onRefresh && (
          <Button type="button" size="sm" variant="secondary" onClick={onRefresh} disabled={busy}>
            Update preview
          </Button>
        )}
      </div>
      {zones.isPending ? (
        <Spinner />
      ) : zones.isError ? (
        <p role="alert" className="text-sm text-rose-600">{messageOf(zones.error, 'Failed to load the time zones')}</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200">
          {zones.data.map((z) => (
            <li key={z.zones} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
              <span className="font-medium text-slate-900">{z.zones.replaceAll(',', ', ')}</span>
              <span className="text-slate-600">
                {z.contacts} {z.contacts === 1 ? 'contact' : 'contacts'} · {z.open_now ? 'open now' : z.opens_at ? `opens ${formatDateTime(z.opens_at)}` : 'does not open in the next two weeks'}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

function LimitsStep({ body, set, errors, busy, onNext, onBack }: StepProps & { onBack: () => void }) {
  const retries = body.retries ?? {}
  const setRetry = (outcome: (typeof RETRY_OUTCOMES)[number], key: 'attempts' | 'wait_minutes', value: number) =>
    set({ retries: { ...retries, [outcome]: { ...(retries[outcome] ?? { attempts: 0, wait_minutes: 60 }), [key]: value } } })
  const number = (value: string) => (value === '' ? 0 : Number(value))
  return (
    <form onSubmit={onNext} noValidate>
      <StepCard
        title="Limits"
        footer={
          <>
            <Button type="button" variant="secondary" onClick={onBack}>
              Back
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? 'Saving…' : 'Continue'}
            </Button>
          </>
        }
      >
        <div className="grid gap-4 sm:grid-cols-3">
          <Field id="concurrency" label="Calls at once" hint="1 to 20." error={errors.concurrency}>
            <Input id="concurrency" type="number" min={1} max={20} value={body.concurrency ?? 3} onChange={(e) => set({ concurrency: number(e.target.value) })} />
          </Field>
          <Field id="pace" label="Calls started per minute" hint="1 to 120." error={errors.pace_per_minute}>
            <Input id="pace" type="number" min={1} max={120} value={body.pace_per_minute ?? 10} onChange={(e) => set({ pace_per_minute: number(e.target.value) })} />
          </Field>
          <Field id="spend-cap" label="Spending cap in $ (optional)" hint="It pauses itself when reached." error={errors.spend_cap}>
            <Input id="spend-cap" type="number" min={0} step="0.01" value={body.spend_cap ?? ''} onChange={(e) => set({ spend_cap: e.target.value === '' ? null : Number(e.target.value) })} />
          </Field>
        </div>
        <fieldset>
          <legend className="text-sm font-medium text-slate-700">Try again after</legend>
          {errors.retries && <p role="alert" className="text-xs font-medium text-rose-600">{errors.retries}</p>}
          <div className="mt-2 grid gap-3 sm:grid-cols-2">
            {RETRY_OUTCOMES.map((outcome) => (
              <div key={outcome} className="flex items-end gap-2 rounded-lg p-3 ring-1 ring-slate-200">
                <span className="w-24 pb-2 text-sm font-medium text-slate-800">{OUTCOME_LABEL[outcome]}</span>
                <Field id={`retry-${outcome}-attempts`} label="More tries">
                  <Input id={`retry-${outcome}-attempts`} type="number" min={0} max={5} value={retries[outcome]?.attempts ?? 0} onChange={(e) => setRetry(outcome, 'attempts', number(e.target.value))} />
                </Field>
                <Field id={`retry-${outcome}-wait`} label="Minutes later">
                  <Input id={`retry-${outcome}-wait`} type="number" min={0} value={retries[outcome]?.wait_minutes ?? 60} onChange={(e) => setRetry(outcome, 'wait_minutes', number(e.target.value))} />
                </Field>
              </div>
            ))}
          </div>
        </fieldset>
      </StepCard>
    </form>
  )
}

function ReviewStep({ campaignId, busy, onBack, onStart }: { campaignId: string; busy: boolean; onBack: () => void; onStart: () => void }) {
  const campaign = useQuery(campaignQuery(campaignId))
  const c = campaign.data
  return (
    <StepCard
      title="Review"
      footer={
        <>
          <Button variant="secondary" onClick={onBack}>
            Back
          </Button>
          <Button onClick={onStart} disabled={busy || !c}>
            {busy ? 'Starting…' : 'Start campaign'}
          </Button>
        </>
      }
    >
      {!c ? (
        <Spinner />
      ) : (
        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2" data-testid="campaign-review">
          <Item label="Name">{c.name}</Item>
          <Item label="Agent">{c.agent_name ?? '—'}</Item>
          <Item label="Contacts">{counts(c).total}</Item>
          <Item label="Days and hours">
            {c.days.map((d) => DAYS[d]).join(', ')}, {c.calling_window} (callee's time)
          </Item>
          <Item label="Limits">
            {c.concurrency} at once, {c.pace_per_minute} per minute{c.spend_cap ? `, at most ${dollars(c.spend_cap)}` : ''}
          </Item>
          <Item label="Most it can cost">
            <span data-testid="max-cost">{dollars(c.max_remaining_cost)}</span> <span className="text-slate-500">(every contact's call at the agent's max duration; calls cost {BILLING_RULE})</span>
          </Item>
        </dl>
      )}
      <ZonePreview campaignId={campaignId} />
    </StepCard>
  )
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 text-slate-900">{children}</dd>
    </div>
  )
}
