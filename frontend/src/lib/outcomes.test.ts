import { describe, expect, it } from 'vitest'
import { answeredByLabel, CHART_COLORS, closingToast, isOutcome, OUTCOMES, outcomeSentence, outcomeSeries, STATUS_COLORS, statusColor } from './outcomes'

describe('outcome words', () => {
  it.each([
    ['completed', null, 'The call has completed'],
    ['voicemail', null, 'Voicemail reached'],
    ['busy', null, 'The line was busy'],
    ['no-answer', null, 'No answer'],
    ['stopped', null, 'You stopped the call'],
    ['time-limit', null, 'The call reached its time limit'],
    ['callee-hung-up', null, 'The callee hung up'],
    ['cut-by-fault', 'The call was cut off by a fault; it is billed up to its last activity.', 'The call was cut off by a fault'],
    ['failed', 'Unable to create record: The number is unverified.', 'The call failed: Unable to create record: The number is unverified'],
    ['failed', null, 'The call failed'],
    [null, null, 'The call has ended'],
    ['hangup-by-callee', null, 'The call has ended'],
  ])('%s (%s) -> %s', (outcome, error, words) => expect(outcomeSentence(outcome, error)).toBe(words))

  it('gives every outcome its own label, colour and sentence', () => {
    const styles = Object.values(OUTCOMES)
    expect(styles).toHaveLength(10)
    for (const key of ['label', 'tone', 'color', 'sentence'] as const) expect(new Set(styles.map((s) => s[key])).size).toBe(10)
  })

  it('keeps the spec colours for the values it names', () => {
    expect(OUTCOMES.completed.tone).toBe('green')
    expect(OUTCOMES['no-answer'].tone).toBe('yellow')
    expect(OUTCOMES.failed.tone).toBe('red')
  })

  it('knows the vocabulary and nothing else', () => {
    expect(isOutcome('busy')).toBe(true)
    expect(isOutcome('in-progress')).toBe(false)
    expect(isOutcome('toString')).toBe(false)
    expect(isOutcome(null)).toBe(false)
  })
})

describe('closingToast', () => {
  it("says the closing event's sentence, which carries a failure's reason", () => {
    expect(closingToast({ outcome: 'failed', outcomeText: 'The call failed: the carrier could not connect it' })).toBe(
      'The call failed: the carrier could not connect it. You can now start a new call.',
    )
  })
  it('falls back to the outcome, then to the spec text', () => {
    expect(closingToast({ outcome: 'busy' })).toBe('The line was busy. You can now start a new call.')
    expect(closingToast({})).toBe('The call has completed. You can now start a new call.')
  })
})

describe('answeredByLabel', () => {
  it.each([
    ['human', 'A person'],
    ['voicemail', 'Voicemail'],
    ['unknown', 'Not known'],
    [null, 'Not answered'],
    ['robot', 'Not answered'],
  ])('%s -> %s', (value, label) => expect(answeredByLabel(value)).toBe(label))
})

describe('chart colours', () => {
  const outcomeColors = Object.values(OUTCOMES).map((s) => s.color.toLowerCase())

  it('never gives two outcomes one colour', () => {
    expect(new Set(outcomeColors).size).toBe(Object.keys(OUTCOMES).length)
  })

  it('gives every status its own colour, the outcome’s where it means one', () => {
    const colors = Object.values(STATUS_COLORS).map((c) => c.toLowerCase())
    expect(new Set(colors).size).toBe(colors.length)
    expect(STATUS_COLORS.canceled).toBe(OUTCOMES.stopped.color)
    expect(STATUS_COLORS.busy).toBe(OUTCOMES.busy.color)
    // A status that is no outcome never wears an outcome's colour.
    for (const status of ['queued', 'ringing', 'in-progress', 'unknown']) expect(outcomeColors).not.toContain(STATUS_COLORS[status].toLowerCase())
    expect(statusColor('rejected')).toBe(STATUS_COLORS.unknown)
    expect(statusColor('toString')).toBe(STATUS_COLORS.unknown)
  })

  it('keeps outcome colours for outcomes: other series use none of them, nor each other’s', () => {
    const others = Object.values(CHART_COLORS).map((c) => c.toLowerCase())
    expect(new Set(others).size).toBe(others.length)
    for (const color of others) {
      expect(outcomeColors).not.toContain(color)
      expect(Object.values(STATUS_COLORS).map((c) => c.toLowerCase())).not.toContain(color)
    }
  })

  it('stacks one series per outcome that occurs, each in its own colour', () => {
    const series = outcomeSeries([{ busy: 2, stopped: 1 }, {}, { failed: 1, busy: 1, surprise: 4 }])
    expect(series.map((s) => [s.outcome, s.data])).toEqual([
      ['failed', [0, 0, 1]],
      ['busy', [2, 0, 1]],
      ['stopped', [1, 0, 0]],
    ])
    expect(series.map((s) => s.color)).toEqual([OUTCOMES.failed.color, OUTCOMES.busy.color, OUTCOMES.stopped.color])
    expect(new Set(series.map((s) => s.color)).size).toBe(series.length)
  })
})
