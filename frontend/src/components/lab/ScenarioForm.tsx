/** The scenario editor's form view: the name and suite, the simulated callee, the expectations
 * and the call's variables. It edits a `Draft`; each problem shows under its field. */
import { Trash2 } from 'lucide-react'
import { Select, TextArea } from '@/components/kit'
import { Button } from '@/components/ui/button'
import { Field } from '@/components/ui/field'
import { fieldAria } from '@/components/ui/fieldAria'
import { Input } from '@/components/ui/input'
import { CALLEE_KINDS, LINES_MAX, NOISES, OUTCOMES, PHRASES_MAX, TALKING_KINDS, TOOLS_MAX, VARIABLES_MAX, type Draft, type Problems } from './draft'
import { PairRows, Problem, Rows, TextList } from './fields'

/** An input of a row (its name in aria-label), its problem under it. */
function RowInput({ id, label, value, problem, onChange, maxLength, placeholder, className, inputMode }: { id: string; label: string; value: string; problem?: string; onChange: (value: string) => void; maxLength: number; placeholder: string; className?: string; inputMode?: 'decimal' }) {
  return (
    <div className="space-y-1">
      <Input id={id} aria-label={label} className={className} inputMode={inputMode} value={value} maxLength={maxLength} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} {...fieldAria(id, problem)} />
      <Problem id={id} message={problem} />
    </div>
  )
}

/** A multi-line text field (a persona, a menu's JSON). */
function JsonField({ id, label, value, problem, hint, placeholder, onChange }: { id: string; label: string; value: string; problem?: string; hint: string; placeholder: string; onChange: (value: string) => void }) {
  return (
    <Field id={id} label={label} error={problem} hint={hint}>
      <TextArea id={id} rows={4} value={value} maxLength={20000} placeholder={placeholder} spellCheck={id !== 'callee-menu'} className={id === 'callee-menu' ? 'font-mono text-xs' : undefined} onChange={(e) => onChange(e.target.value)} {...fieldAria(id, problem, true)} />
    </Field>
  )
}

export interface FormProps {
  draft: Draft
  problems: Problems
  onChange: (patch: Partial<Draft>) => void
}

/** A text input in a labelled field, its problem under it. */
function TextField({ id, label, value, problem, onChange, maxLength, hint, placeholder, inputMode }: { id: string; label: string; value: string; problem?: string; onChange: (value: string) => void; maxLength: number; hint?: string; placeholder?: string; inputMode?: 'decimal' | 'numeric' }) {
  return (
    <Field id={id} label={label} error={problem} hint={hint}>
      <Input id={id} value={value} maxLength={maxLength} placeholder={placeholder} inputMode={inputMode} onChange={(e) => onChange(e.target.value)} {...fieldAria(id, problem, Boolean(hint))} />
    </Field>
  )
}

export function ScenarioForm({ draft, problems, onChange }: FormProps) {
  return (
    <div className="space-y-6">
      <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
        <TextField id="scenario-name" label="Name" value={draft.name} problem={problems.name} maxLength={120} placeholder="Reschedules to Friday" onChange={(name) => onChange({ name })} />
        <TextField id="scenario-suite" label="Suite" value={draft.suite} problem={problems.suite} maxLength={60} hint="The group it is in: a group also runs alone." onChange={(suite) => onChange({ suite })} />
      </div>
      <CalleeFields draft={draft} problems={problems} onChange={onChange} />
      <ExpectFields draft={draft} problems={problems} onChange={onChange} />
      <PairRows id="scenario-variables" legend="Variables" hint="Values for the agent's {{variables}} on this call." rows={draft.variables} max={VARIABLES_MAX} problems={problems} problemKey="variables" onChange={(variables) => onChange({ variables })} />
    </div>
  )
}

function CalleeFields({ draft, problems, onChange }: FormProps) {
  return (
    <section aria-labelledby="scenario-callee" className="space-y-4 rounded-xl p-4 ring-1 ring-slate-200">
      <h3 id="scenario-callee" className="font-semibold text-slate-900">
        The callee
      </h3>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="callee-kind" label="Kind" error={problems['callee.kind']}>
          <Select id="callee-kind" value={draft.kind} onChange={(e) => onChange({ kind: e.target.value as Draft['kind'] })} {...fieldAria('callee-kind', problems['callee.kind'])}>
            {CALLEE_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {kind}
              </option>
            ))}
          </Select>
        </Field>
        <TextField id="callee-label" label="Label (optional)" value={draft.label} problem={problems['callee.label']} maxLength={200} placeholder="a patient who wants to reschedule" onChange={(label) => onChange({ label })} />
      </div>
      <TextField id="callee-hello" label="Hello" value={draft.hello} problem={problems['callee.hello']} maxLength={300} hint="What it says when it picks up (a voicemail: its greeting)." onChange={(hello) => onChange({ hello })} />
      <TextList id="callee-lines" legend="Lines" name="Line" hint='Its replies, one per agent turn, in order; "[press 1]" presses a key.' items={draft.lines} max={LINES_MAX} maxLength={500} problems={problems} problemKey="callee.lines" onChange={(lines) => onChange({ lines })} />
      {draft.kind === 'ivr' && <JsonField id="callee-menu" label="Phone menu (JSON)" value={draft.menu} problem={problems['callee.menu']} hint='{"prompt": ..., "options": {"1": a line, another menu, or {"desk": "Robin", "lines": [...]}}}; keys 0-9 and #.' placeholder='{"prompt": "For sales, press 1.", "options": {"1": "Sales is closed right now."}}' onChange={(menu) => onChange({ menu })} />}
      {TALKING_KINDS.includes(draft.kind) && <JsonField id="callee-answers" label="Answers by the kind of question (JSON, optional)" value={draft.answers} problem={problems['callee.answers']} hint="When the agent's turn holds one of an answer's words, the callee says that answer (once) instead of its next line." placeholder='[{"when": ["still works", "still work"], "say": "No, can we move it to Friday?"}]' onChange={(answers) => onChange({ answers })} />}
      {TALKING_KINDS.includes(draft.kind) && <JsonField id="callee-persona" label="Persona (optional)" value={draft.persona} problem={problems['callee.persona']} hint="Who it is, in free text: with an LLM configured, the LLM writes its replies (its lines are said when the LLM fails)." placeholder="a busy nurse who wants to move her appointment to Friday afternoon" onChange={(persona) => onChange({ persona })} />}
      {draft.kind === 'interrupts' && <TextField id="callee-interruption" label="Interruption" value={draft.interruption} problem={problems['callee.interruption']} maxLength={300} hint="The line said over the agent." onChange={(interruption) => onChange({ interruption })} />}
      <div className="grid gap-4 sm:grid-cols-4">
        <Field id="callee-noise" label="Noise" error={problems['callee.noise']}>
          <Select id="callee-noise" value={draft.noise} onChange={(e) => onChange({ noise: e.target.value as Draft['noise'] })}>
            {NOISES.map((noise) => (
              <option key={noise} value={noise}>
                {noise}
              </option>
            ))}
          </Select>
        </Field>
        <TextField id="callee-pauses" label="Pauses (s)" inputMode="decimal" value={draft.pauses} problem={problems['callee.pauses']} maxLength={8} hint='Silence at each "|".' onChange={(pauses) => onChange({ pauses })} />
        <TextField id="callee-thinking" label="Thinking (s)" inputMode="decimal" value={draft.thinking} problem={problems['callee.thinking']} maxLength={8} hint="Before it answers." onChange={(thinking) => onChange({ thinking })} />
        <TextField id="callee-ring" label="Ring (s)" inputMode="decimal" value={draft.ringSeconds} problem={problems['callee.ring_seconds']} maxLength={8} hint="Before it answers." onChange={(ringSeconds) => onChange({ ringSeconds })} />
      </div>
    </section>
  )
}

function ExpectFields({ draft, problems, onChange }: FormProps) {
  return (
    <section aria-labelledby="scenario-expect" className="space-y-4 rounded-xl p-4 ring-1 ring-slate-200">
      <div>
        <h3 id="scenario-expect" className="font-semibold text-slate-900">
          Expectations
        </h3>
        <p className="text-xs text-slate-500">Each one given is a check; those left empty are not checked.</p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="expect-outcome" label="Outcome" error={problems['expect.outcome']}>
          <Select id="expect-outcome" value={draft.outcome} onChange={(e) => onChange({ outcome: e.target.value as Draft['outcome'] })}>
            <option value="">Not checked</option>
            {OUTCOMES.map((outcome) => (
              <option key={outcome} value={outcome}>
                {outcome}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="expect-transferred" label="Transferred" error={problems['expect.transferred']}>
          <Select id="expect-transferred" value={draft.transferred} onChange={(e) => onChange({ transferred: e.target.value as Draft['transferred'] })}>
            <option value="">Not checked</option>
            <option value="yes">Yes</option>
            <option value="no">No</option>
          </Select>
        </Field>
      </div>
      <SaysRows draft={draft} problems={problems} onChange={onChange} />
      <TextList id="expect-callee-says" legend="Callee says" name="Phrase the callee says" hint="What the callee must say (a phone menu's person reached, for one)." items={draft.calleeSays} max={PHRASES_MAX} maxLength={300} problems={problems} problemKey="expect.callee_says" onChange={(calleeSays) => onChange({ calleeSays })} />
      <TextField id="expect-keys" label="Keys pressed" value={draft.keys} problem={problems['expect.keys']} maxLength={64} hint='Keys the agent must press, in order (others may come between): "31".' placeholder="31" onChange={(keys) => onChange({ keys })} />
      <TextList id="expect-never" legend="Never says" name="Phrase never said" items={draft.neverSays} max={PHRASES_MAX} maxLength={300} problems={problems} problemKey="expect.never_says" onChange={(neverSays) => onChange({ neverSays })} />
      <TextField id="expect-path" label="Path" value={draft.path} problem={problems['expect.path']} maxLength={3000} hint="The flow's node ids, in order, separated by commas." placeholder="greeting, confirm, rescheduled" onChange={(path) => onChange({ path })} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField id="expect-max-call" label="Max call seconds" inputMode="numeric" value={draft.maxCallSeconds} problem={problems['expect.max_call_seconds']} maxLength={6} onChange={(maxCallSeconds) => onChange({ maxCallSeconds })} />
        <TextField id="expect-max-reply" label="Max reply seconds" inputMode="decimal" value={draft.maxReplySeconds} problem={problems['expect.max_reply_seconds']} maxLength={6} onChange={(maxReplySeconds) => onChange({ maxReplySeconds })} />
      </div>
      <PairRows id="expect-values" legend="Values" hint="Captured by the flow or extracted by the analysis." rows={draft.values} max={PHRASES_MAX} problems={problems} problemKey="expect.values" onChange={(values) => onChange({ values })} />
      <ToolRows draft={draft} problems={problems} onChange={onChange} />
    </section>
  )
}

/** Phrases the agent must say, each with an optional "within seconds" of the answer. */
function SaysRows({ draft: { says }, problems, onChange }: FormProps) {
  const set = (i: number, patch: Partial<(typeof says)[number]>) => onChange({ says: says.map((row, j) => (j === i ? { ...row, ...patch } : row)) })
  return (
    <Rows legend="Says" hint="Phrases the agent must say (case and punctuation aside)." addLabel="Add phrase said" onAdd={() => onChange({ says: [...says, { phrase: '', within: '' }] })} full={says.length >= PHRASES_MAX} problem={problems['expect.says']} problemId="expect-says">
      {says.map((row, i) => (
        <div key={i} className="grid gap-2 sm:grid-cols-[1fr_9rem_auto]">
          <RowInput id={`expect-says-${i}`} label={`Phrase said ${i + 1}`} value={row.phrase} maxLength={300} placeholder="I'm an AI assistant" problem={problems[`expect.says.${i}.phrase`]} onChange={(phrase) => set(i, { phrase })} />
          <RowInput id={`expect-says-${i}-within`} label={`Phrase said ${i + 1} within seconds`} inputMode="decimal" value={row.within} maxLength={8} placeholder="within s" problem={problems[`expect.says.${i}.within_seconds`]} onChange={(within) => set(i, { within })} />
          <Button type="button" variant="ghost" size="icon" aria-label={`Remove phrase said ${i + 1}`} onClick={() => onChange({ says: says.filter((_, j) => j !== i) })}>
            <Trash2 className="h-4 w-4 text-rose-600" aria-hidden />
          </Button>
        </div>
      ))}
    </Rows>
  )
}

/** Tools the agent must call: a name and the arguments (JSON) it must have passed. */
function ToolRows({ draft: { tools }, problems, onChange }: FormProps) {
  const set = (i: number, patch: Partial<(typeof tools)[number]>) => onChange({ tools: tools.map((row, j) => (j === i ? { ...row, ...patch } : row)) })
  return (
    <Rows legend="Tools" hint='A tool the agent must call, and arguments it must pass, like {"day": "Friday"}.' addLabel="Add tool" onAdd={() => onChange({ tools: [...tools, { name: '', arguments: '' }] })} full={tools.length >= TOOLS_MAX} problem={problems['expect.tools']} problemId="expect-tools">
      {tools.map((row, i) => (
        <div key={i} className="grid gap-2 sm:grid-cols-[10rem_1fr_auto]">
          <RowInput id={`expect-tool-${i}`} label={`Tool ${i + 1} name`} value={row.name} maxLength={64} placeholder="book_slot" problem={problems[`expect.tools.${i}.name`]} onChange={(name) => set(i, { name })} />
          <RowInput id={`expect-tool-${i}-args`} label={`Tool ${i + 1} arguments (JSON)`} className="font-mono" value={row.arguments} maxLength={2000} placeholder='{"day": "Friday"}' problem={problems[`expect.tools.${i}.arguments`]} onChange={(args) => set(i, { arguments: args })} />
          <Button type="button" variant="ghost" size="icon" aria-label={`Remove tool ${i + 1}`} onClick={() => onChange({ tools: tools.filter((_, j) => j !== i) })}>
            <Trash2 className="h-4 w-4 text-rose-600" aria-hidden />
          </Button>
        </div>
      ))}
    </Rows>
  )
}
