import { describe, expect, it } from 'vitest'
import { activeLine, formatPosition, lineOffsets } from './playback'

const lines = [{ created_at: '2026-11-24T10:00:01Z' }, { created_at: '2026-11-24T10:00:04Z' }, { created_at: '2026-11-24T10:00:09Z' }]
const times = { recording_started_at: '2026-11-24T10:00:00Z', recording_ended_at: '2026-11-24T10:00:10Z' }

describe('placing lines on the recording', () => {
  it('measures from the recording start, at the clock’s pace before the length is known', () => {
    expect(lineOffsets(lines, times, null)).toEqual([1, 4, 9])
  })

  it('scales by the recording’s length over its wall time (a sped-up sandbox call), within the recording', () => {
    expect(lineOffsets(lines, times, 20)).toEqual([2, 8, 18])
    expect(lineOffsets(lines, times, 10)).toEqual([1, 4, 9])
    expect(lineOffsets([{ created_at: '2026-11-24T10:00:30Z' }], { ...times, recording_ended_at: null }, 12)).toEqual([12])
  })

  it('ignores a scale that cannot be about this recording, and gives no places without a start', () => {
    expect(lineOffsets(lines, times, 100)).toEqual([1, 4, 9])
    expect(lineOffsets(lines, { recording_started_at: null, recording_ended_at: null }, 10)).toEqual([null, null, null])
  })

  it('finds the line being played', () => {
    const offsets = [1, 4, 9]
    expect(activeLine(offsets, 0.5)).toBeNull()
    expect(activeLine(offsets, 0.96)).toBe(0) // a line sought to is "begun"
    expect(activeLine(offsets, 5)).toBe(1)
    expect(activeLine(offsets, 60)).toBe(2)
    expect(activeLine([null, null], 3)).toBeNull()
  })

  it('writes positions as m:ss', () => {
    expect(formatPosition(0)).toBe('0:00')
    expect(formatPosition(75.9)).toBe('1:15')
    expect(formatPosition(Number.NaN)).toBe('0:00')
  })
})
