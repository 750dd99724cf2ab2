/** A scenario as its editor holds it (`Draft`: texts as typed, rows for maps) and the
 * conversions both ways: `toScenario` gives the contract's JSON (`lab.contract.Scenario`) and
 * the problems found, each under the field's name as the server names it ("callee.lines.0",
 * "expect.says.1.phrase"), so the server's 422 and ours land at the same field; `fromScenario`
 * reads JSON back (the JSON view), saying what does not fit. */
import type { Callee, CalleeOut, Expectations, Scenario } from './api'

export const CALLEE_KINDS = ['person', 'voicemail', 'no-answer', 'busy', 'hangs-up', 'interrupts', 'silent', 'opts-out', 'wants-a-person', 'ivr', 'presses-keys'] as const
/** The kinds that hold a conversation (a free-text persona can play them). */
export const TALKING_KINDS: readonly string[] = ['person', 'interrupts', 'opts-out', 'wants-a-person']
export const NOISES = ['none', 'office', 'street', 'cafe'] as const
export const OUTCOMES = ['completed', 'voicemail', 'transferred', 'no-answer', 'busy', 'failed', 'callee-hung-up', 'time-limit'] as const
export type CalleeKind = (typeof CALLEE_KINDS)[number]
export type Outcome = (typeof OUTCOMES)[number]
export type Noise = (typeof NOISES)[number]

export const LINES_MAX = 30
export const PHRASES_MAX = 20
export const TOOLS_MAX = 10
export const VARIABLES_MAX = 50
export const DEFAULT_SUITE = 'main'

export interface Pair {
  name: string
  value: string
}
export interface SaysDraft {
  phrase: string
  within: string
}
export interface ToolDraft {
  name: string
  arguments: string
}

export interface Draft {
  name: string
  suite: string
  kind: CalleeKind
  label: string
  hello: string
  lines: string[]
  interruption: string
  pauses: string
  thinking: string
  ringSeconds: string
  noise: Noise
  persona: string
  /** For "ivr": its phone menu as JSON text. */
  menu: string
  /** Its answers by the kind of question as JSON text ('': none). */
  answers: string
  /** The callee's fields the form does not edit (joined, resumed, voice), kept as they were. */
  calleeRest: Partial<Pick<Callee, 'joined' | 'resumed' | 'voice'>>
  outcome: '' | Outcome
  keys: string
  calleeSays: string[]
  says: SaysDraft[]
  neverSays: string[]
  transferred: '' | 'yes' | 'no'
  path: string
  maxCallSeconds: string
  maxReplySeconds: string
  values: Pair[]
  tools: ToolDraft[]
  variables: Pair[]
}

/** The scenario's JSON (`suite`: the server's default group when left out). */
export type ScenarioJson = Scenario
/** A suite's name: letters, digits, spaces, "-" and "_", starting with a letter or digit. */
export const SUITE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 _-]*$/
export type Problems = Record<string, string>

export function emptyDraft(suite: string = DEFAULT_SUITE): Draft {
  return {
    name: '',
    suite,
    kind: 'person',
    label: '',
    hello: 'Hello?',
    lines: [''],
    interruption: '',
    pauses: '0',
    thinking: '0.3',
    ringSeconds: '2',
    noise: 'none',
    persona: '',
    menu: '',
    answers: '',
    calleeRest: {},
    outcome: '',
    keys: '',
    calleeSays: [],
    says: [],
    neverSays: [],
    transferred: '',
    path: '',
    maxCallSeconds: '',
    maxReplySeconds: '',
    values: [],
    tools: [],
    variables: [],
  }
}

const text = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value))
const pairs = (map: Record<string, string> | undefined): Pair[] => Object.entries(map ?? {}).map(([name, value]) => ({ name, value }))

/** A scenario's JSON as the editor holds it. */
export function draftOf(scenario: Omit<ScenarioJson, 'callee'> & { callee: Callee | CalleeOut }): Draft {
  const callee = scenario.callee
  const expect: Expectations = scenario.expect ?? {}
  const base = emptyDraft(scenario.suite ?? DEFAULT_SUITE)
  const rest: Draft['calleeRest'] = {}
  if (callee.joined?.length) rest.joined = callee.joined
  if (callee.resumed?.length) rest.resumed = callee.resumed
  if (callee.voice) rest.voice = callee.voice
  return {
    ...base,
    name: scenario.name,
    kind: (callee.kind ?? 'person') as CalleeKind,
    label: callee.label ?? '',
    hello: callee.hello ?? base.hello,
    lines: callee.lines ?? [],
    interruption: callee.interruption ?? '',
    pauses: text(callee.pauses ?? 0),
    thinking: text(callee.thinking ?? 0.3),
    ringSeconds: text(callee.ring_seconds ?? 2),
    noise: (callee.noise ?? 'none') as Noise,
    persona: callee.persona ?? '',
    menu: callee.menu ? JSON.stringify(callee.menu, null, 2) : '',
    answers: callee.answers?.length ? JSON.stringify(callee.answers, null, 2) : '',
    calleeRest: rest,
    outcome: expect.outcome ?? '',
    keys: expect.keys ?? '',
    calleeSays: expect.callee_says ?? [],
    says: (expect.says ?? []).map((s) => ({ phrase: s.phrase, within: text(s.within_seconds) })),
    neverSays: expect.never_says ?? [],
    transferred: expect.transferred === true ? 'yes' : expect.transferred === false ? 'no' : '',
    path: (expect.path ?? []).join(', '),
    maxCallSeconds: text(expect.max_call_seconds),
    maxReplySeconds: text(expect.max_reply_seconds),
    values: pairs(expect.values),
    tools: (expect.tools ?? []).map((t) => ({ name: t.name, arguments: Object.keys(t.arguments ?? {}).length ? JSON.stringify(t.arguments) : '' })),
    variables: pairs(scenario.variables),
  }
}

/** Reads a number typed into a field: blank gives `blank`; out of its bounds, a problem. */
function number(problems: Problems, key: string, typed: string, { min, max, above = false, whole = false, label }: { min: number; max: number; above?: boolean; whole?: boolean; label: string }): number | undefined {
  const trimmed = typed.trim()
  if (!trimmed) return undefined
  const value = Number(trimmed)
  const low = above ? value <= min : value < min
  if (!Number.isFinite(value) || low || value > max || (whole && !Number.isInteger(value)))
    problems[key] = `${label} must be ${whole ? 'a whole number' : 'a number'} ${above ? `above ${min}` : `from ${min}`} ${above ? 'up to' : 'to'} ${max}.`
  return Number.isFinite(value) ? value : undefined
}

function words(problems: Problems, key: string, value: string, label: string, max: number, required = true): string {
  if (required && !value.trim()) problems[key] = `${label} cannot be empty.`
  else if (value.length > max) problems[key] = `${label} is at most ${max} characters long.`
  return value
}

function map(problems: Problems, key: string, rows: Pair[], label: string, max: number): Record<string, string> {
  const out: Record<string, string> = {}
  if (rows.length > max) problems[key] = `At most ${max} ${label}.`
  rows.forEach((row, i) => {
    const name = row.name.trim()
    if (!name) problems[`${key}.${i}`] = 'Each row needs a name.'
    else if (name in out) problems[`${key}.${i}`] = `The name "${name}" is given twice.`
    out[name] = row.value
  })
  return out
}

/** The tool's arguments as typed (a JSON object of strings, numbers and yes/no values). */
function toolArguments(problems: Problems, key: string, typed: string): Record<string, string | number | boolean> {
  if (!typed.trim()) return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(typed)
  } catch {
    parsed = null
  }
  const ok = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) && Object.values(parsed).every((v) => ['string', 'number', 'boolean'].includes(typeof v))
  if (!ok) {
    problems[key] = 'The arguments must be a JSON object of texts, numbers or true/false, like {"day": "Friday"}.'
    return {}
  }
  return parsed as Record<string, string | number | boolean>
}

function expectationsOf(draft: Draft, problems: Problems): Expectations {
  const expect: Expectations = {}
  if (draft.outcome) expect.outcome = draft.outcome
  const values = map(problems, 'expect.values', draft.values, 'values', PHRASES_MAX)
  if (draft.values.length) expect.values = values
  if (draft.says.length) {
    if (draft.says.length > PHRASES_MAX) problems['expect.says'] = `At most ${PHRASES_MAX} phrases.`
    expect.says = draft.says.map((s, i) => {
      const within = number(problems, `expect.says.${i}.within_seconds`, s.within, { min: 0, max: 3600, above: true, label: 'Within seconds' })
      return { phrase: words(problems, `expect.says.${i}.phrase`, s.phrase, 'The phrase', 300), ...(within !== undefined ? { within_seconds: within } : {}) }
    })
  }
  if (draft.neverSays.length) {
    if (draft.neverSays.length > PHRASES_MAX) problems['expect.never_says'] = `At most ${PHRASES_MAX} phrases.`
    expect.never_says = draft.neverSays.map((p, i) => words(problems, `expect.never_says.${i}`, p, 'The phrase', 300))
  }
  if (draft.tools.length) {
    if (draft.tools.length > TOOLS_MAX) problems['expect.tools'] = `At most ${TOOLS_MAX} tools.`
    expect.tools = draft.tools.map((t, i) => ({ name: words(problems, `expect.tools.${i}.name`, t.name.trim(), 'The tool name', 64), arguments: toolArguments(problems, `expect.tools.${i}.arguments`, t.arguments) }))
  }
  if (draft.keys.trim()) {
    const keys = draft.keys.trim()
    if (keys.length > 64 || !/^[0-9*#]+$/.test(keys)) problems['expect.keys'] = 'The keys are 1 to 64 of 0-9, * and #.'
    expect.keys = keys
  }
  if (draft.calleeSays.length) {
    if (draft.calleeSays.length > PHRASES_MAX) problems['expect.callee_says'] = `At most ${PHRASES_MAX} phrases.`
    expect.callee_says = draft.calleeSays.map((p, i) => words(problems, `expect.callee_says.${i}`, p, 'The phrase', 300))
  }
  if (draft.transferred) expect.transferred = draft.transferred === 'yes'
  const path = draft.path.split(',').map((id) => id.trim()).filter(Boolean)
  if (path.length) {
    if (path.length > 50) problems['expect.path'] = 'At most 50 node ids.'
    if (path.some((id) => id.length > 64)) problems['expect.path'] = 'A node id is at most 64 characters long.'
    expect.path = path
  }
  const callSeconds = number(problems, 'expect.max_call_seconds', draft.maxCallSeconds, { min: 1, max: 7200, whole: true, label: 'Max call seconds' })
  if (callSeconds !== undefined) expect.max_call_seconds = callSeconds
  const replySeconds = number(problems, 'expect.max_reply_seconds', draft.maxReplySeconds, { min: 0, max: 60, above: true, label: 'Max reply seconds' })
  if (replySeconds !== undefined) expect.max_reply_seconds = replySeconds
  return expect
}

/** The phone menu as typed (JSON), held to the contract's rule: an "ivr" callee alone has one. */
function menuOf(problems: Problems, draft: Draft): Callee['menu'] {
  if (!draft.menu.trim()) {
    if (draft.kind === 'ivr') problems['callee.menu'] = 'An IVR callee needs its menu.'
    return undefined
  }
  if (draft.kind !== 'ivr') {
    problems['callee.menu'] = 'Only an "ivr" callee has a menu.'
    return undefined
  }
  let menu: unknown
  try {
    menu = JSON.parse(draft.menu)
  } catch {
    menu = null
  }
  if (!isObject(menu) || typeof menu.prompt !== 'string' || !isObject(menu.options)) {
    problems['callee.menu'] = 'The menu must be JSON like {"prompt": "For sales, press 1.", "options": {"1": "Sales is closed."}}.'
    return undefined
  }
  return menu as Callee['menu']
}

const ANSWERS_SHAPE = 'callee.answers must be a list like [{"when": ["still works"], "say": "No, Friday?"}].'
const isAnswers = (value: unknown) => Array.isArray(value) && value.every((a) => isObject(a) && Array.isArray(a.when) && a.when.length > 0 && strings(a.when) && typeof a.say === 'string')

/** The answers by the kind of question as typed (JSON), or undefined (none, or a problem). */
function answersOf(problems: Problems, draft: Draft): Callee['answers'] {
  if (!draft.answers.trim()) return undefined
  let answers: unknown
  try {
    answers = JSON.parse(draft.answers)
  } catch {
    answers = null
  }
  if (!isAnswers(answers)) {
    problems['callee.answers'] = ANSWERS_SHAPE
    return undefined
  }
  return answers as Callee['answers']
}

function calleeOf(draft: Draft, problems: Problems): Callee {
  if (draft.lines.length > LINES_MAX) problems['callee.lines'] = `At most ${LINES_MAX} lines.`
  const callee: Callee = {
    kind: draft.kind,
    ...(draft.label ? { label: words(problems, 'callee.label', draft.label, 'The label', 200, false) } : {}),
    hello: words(problems, 'callee.hello', draft.hello, 'The hello', 300),
    lines: draft.lines.map((line, i) => words(problems, `callee.lines.${i}`, line, 'A line', 500)),
    ...(draft.interruption ? { interruption: words(problems, 'callee.interruption', draft.interruption, 'The interruption', 300, false) } : {}),
    pauses: number(problems, 'callee.pauses', draft.pauses, { min: 0, max: 5, label: 'Pauses' }) ?? 0,
    thinking: number(problems, 'callee.thinking', draft.thinking, { min: 0, max: 10, label: 'Thinking' }) ?? 0.3,
    ring_seconds: number(problems, 'callee.ring_seconds', draft.ringSeconds, { min: 0, max: 60, label: 'Ring seconds' }) ?? 2,
    ...(draft.noise !== 'none' ? { noise: draft.noise } : {}),
    ...(draft.persona.trim() ? { persona: words(problems, 'callee.persona', draft.persona, 'The persona', 2000, false) } : {}),
    ...draft.calleeRest,
  }
  const menu = menuOf(problems, draft)
  if (menu) callee.menu = menu
  const answers = answersOf(problems, draft)
  if (answers?.length) callee.answers = answers
  return callee
}

/** The draft as the contract's JSON, and what is wrong with it (empty: it can be saved). */
export function toScenario(draft: Draft): { scenario: ScenarioJson; problems: Problems } {
  const problems: Problems = {}
  const name = words(problems, 'name', draft.name.trim(), 'The name', 120)
  const suite = words(problems, 'suite', draft.suite.trim(), 'The suite', 60)
  if (suite && !problems.suite && !SUITE_PATTERN.test(suite)) problems.suite = 'A suite is named with letters, digits, spaces, "-" and "_", starting with a letter or digit.'
  const callee = calleeOf(draft, problems)
  const expect = expectationsOf(draft, problems)
  const variables = map(problems, 'variables', draft.variables, 'variables', VARIABLES_MAX)
  return { scenario: { name, suite, callee, expect, variables }, problems }
}

export const jsonOf = (draft: Draft) => JSON.stringify(toScenario(draft).scenario, null, 2)

const SCENARIO_KEYS = ['name', 'suite', 'callee', 'expect', 'variables']
const CALLEE_KEYS = ['kind', 'label', 'hello', 'lines', 'interruption', 'pauses', 'thinking', 'ring_seconds', 'joined', 'resumed', 'voice', 'menu', 'noise', 'persona', 'answers']
const EXPECT_KEYS = ['outcome', 'values', 'says', 'never_says', 'tools', 'keys', 'callee_says', 'transferred', 'path', 'max_call_seconds', 'max_reply_seconds']

/** What JSON.parse refused, and where: "line L, column C" (from the position its message gives;
 * the end of the text when it ran out). */
function whereOf(source: string, message: string): string {
  const at = /position (\d+)/.exec(message)
  const reason = message.replace(/\s*in JSON at position \d+.*$/s, '').replace(/^JSON\.parse: /, '')
  const before = at ? source.slice(0, Number(at[1])) : source
  const line = before.split('\n').length
  const column = before.length - before.lastIndexOf('\n')
  return `The JSON is not valid at line ${line}, column ${column}: ${reason}.`
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)
const strings = (value: unknown) => value === undefined || (Array.isArray(value) && value.every((v) => typeof v === 'string'))

/** What does not fit the contract's shape in parsed JSON (the editor's own checks come after). */
function shapeProblems(value: unknown): Problems {
  if (!isObject(value)) return { json: 'The scenario must be a JSON object.' }
  const problems: Problems = {}
  const extra = (object: Record<string, unknown>, allowed: string[], prefix: string) => {
    for (const key of Object.keys(object)) if (!allowed.includes(key)) problems[`${prefix}${key}`] = `The field "${prefix}${key}" is not allowed.`
  }
  extra(value, SCENARIO_KEYS, '')
  if (typeof value.name !== 'string') problems.name = 'The name must be a text.'
  if (value.suite !== undefined && typeof value.suite !== 'string') problems.suite = 'The suite must be a text.'
  if (!isObject(value.callee)) problems.callee = 'The callee must be an object, like {"kind": "person", "lines": ["Yes."]}.'
  else {
    extra(value.callee, CALLEE_KEYS, 'callee.')
    const kind = value.callee.kind
    if (kind !== undefined && !CALLEE_KINDS.includes(kind as CalleeKind)) problems['callee.kind'] = `The kind must be one of ${CALLEE_KINDS.join(', ')}.`
    for (const key of ['lines', 'joined', 'resumed']) if (!strings(value.callee[key])) problems[`callee.${key}`] = `callee.${key} must be a list of texts.`
    if (value.callee.noise !== undefined && !NOISES.includes(value.callee.noise as Noise)) problems['callee.noise'] = `The noise must be one of ${NOISES.join(', ')}.`
    if (value.callee.persona !== undefined && typeof value.callee.persona !== 'string') problems['callee.persona'] = 'The persona must be a text.'
    if (value.callee.answers !== undefined && !isAnswers(value.callee.answers)) problems['callee.answers'] = ANSWERS_SHAPE
    if (value.callee.menu != null && !isObject(value.callee.menu)) problems['callee.menu'] = 'The menu must be an object.'
    for (const key of ['pauses', 'thinking', 'ring_seconds']) if (value.callee[key] !== undefined && typeof value.callee[key] !== 'number') problems[`callee.${key}`] = `callee.${key} must be a number.`
  }
  if (value.expect !== undefined) {
    if (!isObject(value.expect)) problems.expect = 'expect must be an object.'
    else {
      extra(value.expect, EXPECT_KEYS, 'expect.')
      if (value.expect.outcome != null && !OUTCOMES.includes(value.expect.outcome as Outcome)) problems['expect.outcome'] = `The outcome must be one of ${OUTCOMES.join(', ')}.`
      if (!strings(value.expect.never_says)) problems['expect.never_says'] = 'expect.never_says must be a list of texts.'
      if (!strings(value.expect.callee_says)) problems['expect.callee_says'] = 'expect.callee_says must be a list of texts.'
      if (value.expect.keys != null && typeof value.expect.keys !== 'string') problems['expect.keys'] = 'expect.keys must be a text of keys, like "31".'
      if (value.expect.path != null && !strings(value.expect.path)) problems['expect.path'] = 'expect.path must be a list of node ids.'
      if (value.expect.says !== undefined && !(Array.isArray(value.expect.says) && value.expect.says.every((s) => isObject(s) && typeof s.phrase === 'string'))) problems['expect.says'] = 'expect.says must be a list of {"phrase": ..., "within_seconds": ...}.'
      if (value.expect.tools !== undefined && !(Array.isArray(value.expect.tools) && value.expect.tools.every((t) => isObject(t) && typeof t.name === 'string'))) problems['expect.tools'] = 'expect.tools must be a list of {"name": ..., "arguments": {...}}.'
      if (value.expect.values !== undefined && !(isObject(value.expect.values) && Object.values(value.expect.values).every((v) => typeof v === 'string'))) problems['expect.values'] = 'expect.values must be an object of texts.'
    }
  }
  if (value.variables !== undefined && !(isObject(value.variables) && Object.values(value.variables).every((v) => typeof v === 'string'))) problems.variables = 'variables must be an object of texts.'
  return problems
}

/** The JSON view's text read back: the draft it gives, or where it is wrong. */
export function readJson(source: string): { draft: Draft; problems: Problems } | { draft: null; problems: Problems } {
  let parsed: unknown
  try {
    parsed = JSON.parse(source)
  } catch (error) {
    return { draft: null, problems: { json: whereOf(source, (error as Error).message) } }
  }
  const problems = shapeProblems(parsed)
  if (Object.keys(problems).length) return { draft: null, problems }
  const draft = draftOf(parsed as ScenarioJson)
  return { draft, problems: toScenario(draft).problems }
}
