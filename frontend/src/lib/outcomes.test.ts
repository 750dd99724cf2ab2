import { describe, expect, it } from 'vitest'
import { answeredByLabel, closingToast, isOutcome, OUTCOMES, outcomeSentence } from './outcomes'

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
    expect(styles).toHaveLength(9)
    for (const key of ['label', 'tone', 'color', 'sentence'] as const) expect(new Set(styles.map((s) => s[key])).size).toBe(9)
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
