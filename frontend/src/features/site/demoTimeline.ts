/** The demo call's timed transcript (see DemoCall.tsx). */
export interface DemoLine {
  speaker: string
  text: string
  /** Where the line starts in the recording (seconds). */
  at: number
}

/** How many lines have started by `time` (the lines are in order). */
export function linesStarted(lines: DemoLine[], time: number): number {
  let count = 0
  while (count < lines.length && lines[count].at <= time) count += 1
  return count
}
