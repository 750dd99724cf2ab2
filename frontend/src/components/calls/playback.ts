/** Where each transcript line sits on a call's recording, and which line is being played.
 *
 * A line's `created_at` is when it began to be spoken (wall clock); the recording starts when
 * the media stream connected (`times.recording_started_at`) and ends when it closed
 * (`recording_ended_at`). On a sped-up sandbox call the recording is longer than the wall time
 * it took, so offsets are scaled by the recording's length over that wall time (1 on a real
 * call, within the small delay between the audio's end and the stream's close). */

export interface RecordingTimes {
  recording_started_at: string | null
  recording_ended_at: string | null
}

/** Scales outside this range mean the times are not about this recording: use the clock as is. */
const PLAUSIBLE_SCALE = [0.25, 4] as const

function seconds(iso: string): number {
  return new Date(iso).getTime() / 1000
}

/** Seconds into the recording at which each line begins (null: the call has no recording
 * start to measure from). `duration` is the recording's length once the player knows it. */
export function lineOffsets(lines: { created_at: string }[], times: RecordingTimes, duration: number | null): (number | null)[] {
  if (!times.recording_started_at) return lines.map(() => null)
  const start = seconds(times.recording_started_at)
  let scale = 1
  if (times.recording_ended_at && duration && Number.isFinite(duration) && duration > 0) {
    const wall = seconds(times.recording_ended_at) - start
    const ratio = wall > 0 ? duration / wall : 1
    if (ratio >= PLAUSIBLE_SCALE[0] && ratio <= PLAUSIBLE_SCALE[1]) scale = ratio
  }
  return lines.map((line) => {
    const at = Math.max(0, (seconds(line.created_at) - start) * scale)
    return duration && Number.isFinite(duration) && duration > 0 ? Math.min(at, duration) : at
  })
}

/** The line being played at `time`: the last one begun by then (null before the first). A
 * line is "begun" a little early (50 ms), so seeking to a line highlights that line. */
export function activeLine(offsets: (number | null)[], time: number): number | null {
  let active: number | null = null
  offsets.forEach((offset, index) => {
    if (offset !== null && offset <= time + 0.05) active = index
  })
  return active
}

/** m:ss for a position in the recording. */
export function formatPosition(totalSeconds: number): string {
  const whole = Math.max(0, Math.floor(Number.isFinite(totalSeconds) ? totalSeconds : 0))
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`
}
