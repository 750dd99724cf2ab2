import { describe, expect, it } from 'vitest'
import { draftOf, emptyDraft, jsonOf, readJson, toScenario, type ScenarioJson } from './draft'

const FULL: ScenarioJson = {
  name: 'Reschedules to Friday',
  suite: 'main',
  callee: { kind: 'interrupts', label: 'a busy patient', hello: 'Yes?', lines: ['Reschedule.', 'Friday at 2 pm.'], interruption: 'Wait, wait.', pauses: 0.5, thinking: 1, ring_seconds: 3, voice: 'amy', answers: [{ when: ['still works', 'still work'], say: 'No, can we do Friday?' }] },
  expect: {
    outcome: 'completed',
    values: { new_time: 'Friday 2 pm' },
    says: [{ phrase: "I'm an AI assistant", within_seconds: 10 }, { phrase: 'Friday' }],
    never_says: ['Monday'],
    tools: [{ name: 'book_slot', arguments: { day: 'Friday', seats: 2, confirm: true } }],
    transferred: false,
    path: ['greeting', 'confirm', 'new_time'],
    max_call_seconds: 90,
    max_reply_seconds: 2.5,
    keys: '31',
    callee_says: ['this is Jordan'],
  },
  variables: { customer_name: 'Sam' },
}

const IVR: ScenarioJson = {
  name: 'Reaches deliveries',
  suite: 'menus',
  callee: { kind: 'ivr', hello: 'Hello?', lines: [], pauses: 0, thinking: 0.3, ring_seconds: 2, noise: 'office', menu: { prompt: 'For deliveries, press 3.', options: { '1': 'Sales is closed.', '3': { desk: 'Jordan', lines: ['Hi, this is Jordan.'] } } } },
  expect: { keys: '3', callee_says: ['this is Jordan'] },
  variables: {},
}

describe('the scenario draft', () => {
  it('gives back the scenario it was read from, every field (JSON -> form -> JSON)', () => {
    const { scenario, problems } = toScenario(draftOf(FULL))
    expect(problems).toEqual({})
    expect(scenario).toEqual(FULL)
    expect(JSON.parse(jsonOf(draftOf(FULL)))).toEqual(FULL)
    expect(toScenario(draftOf(IVR))).toEqual({ scenario: IVR, problems: {} })
    expect(toScenario(draftOf({ ...FULL, callee: { ...FULL.callee, kind: 'person', persona: 'a busy nurse' } })).scenario.callee.persona).toBe('a busy nurse')
  })

  it('reads a form edit back from its JSON the same (form -> JSON -> form)', () => {
    const draft = { ...emptyDraft(), name: 'Declines', lines: ['No thanks.', 'Bye.'], outcome: 'completed' as const, neverSays: ['special offer'], path: 'greeting , offer', variables: [{ name: 'day', value: 'Friday' }] }
    const read = readJson(jsonOf(draft))
    expect(read.problems).toEqual({})
    expect(read.draft).toEqual({ ...draft, path: 'greeting, offer' })
  })

  it("says what is wrong, under each field's name as the server names it", () => {
    const draft = {
      ...emptyDraft(),
      lines: ['Yes.', ' '],
      thinking: 'soon',
      ringSeconds: '61',
      says: [{ phrase: '', within: '0' }],
      tools: [{ name: 'book', arguments: '{"day": ["Friday"]}' }],
      maxCallSeconds: '1.5',
      values: [{ name: 'x', value: '1' }, { name: 'x', value: '2' }],
      variables: [{ name: '', value: 'Sam' }],
      keys: '3a',
      menu: '{"prompt": "Press 1."}',
    }
    expect(toScenario(draft).problems).toEqual({
      name: 'The name cannot be empty.',
      'callee.lines.1': 'A line cannot be empty.',
      'callee.thinking': 'Thinking must be a number from 0 to 10.',
      'callee.ring_seconds': 'Ring seconds must be a number from 0 to 60.',
      'expect.says.0.phrase': 'The phrase cannot be empty.',
      'expect.says.0.within_seconds': 'Within seconds must be a number above 0 up to 3600.',
      'expect.tools.0.arguments': 'The arguments must be a JSON object of texts, numbers or true/false, like {"day": "Friday"}.',
      'expect.max_call_seconds': 'Max call seconds must be a whole number from 1 to 7200.',
      'expect.values.1': 'The name "x" is given twice.',
      'variables.0': 'Each row needs a name.',
      'expect.keys': 'The keys are 1 to 64 of 0-9, * and #.',
      'callee.menu': 'Only an "ivr" callee has a menu.',
    })
    expect(toScenario({ ...emptyDraft(), name: 'Menu', lines: [], kind: 'ivr' }).problems).toEqual({ 'callee.menu': 'An IVR callee needs its menu.' })
  })

  it('says where JSON is broken, and what does not fit the contract', () => {
    expect(readJson('{\n  "name": "A",\n}')).toEqual({ draft: null, problems: { json: 'The JSON is not valid at line 3, column 1: Expected double-quoted property name.' } })
    expect(readJson('{"name": "A"').problems.json).toMatch(/^The JSON is not valid at line 1, column 13: /)
    expect(readJson('{"name": "A", "callee": {"kind": "robot", "mood": "calm"}, "expect": {"outcome": "won"}, "extra": 1}').problems).toEqual({
      extra: 'The field "extra" is not allowed.',
      'callee.kind': 'The kind must be one of person, voicemail, no-answer, busy, hangs-up, interrupts, silent, opts-out, wants-a-person, ivr, presses-keys.',
      'callee.mood': 'The field "callee.mood" is not allowed.',
      'expect.outcome': 'The outcome must be one of completed, voicemail, transferred, no-answer, busy, failed, callee-hung-up, time-limit.',
    })
    expect(readJson('[]').problems).toEqual({ json: 'The scenario must be a JSON object.' })
    expect(toScenario({ ...draftOf(FULL), answers: '[{"when": [], "say": "Friday."}]' }).problems).toEqual({
      'callee.answers': 'callee.answers must be a list like [{"when": ["still works"], "say": "No, Friday?"}].',
    })
    expect(readJson('{"name": "A", "callee": {"answers": [{"when": "time", "say": "Friday."}]}}').problems).toEqual({
      'callee.answers': 'callee.answers must be a list like [{"when": ["still works"], "say": "No, Friday?"}].',
    })
  })
})
