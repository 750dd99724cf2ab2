import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { StatusBadge } from './StatusBadge'

const badge = () => screen.getByText((_, el) => el?.tagName === 'SPAN')

describe('StatusBadge', () => {
  it.each([
    ['completed', 'completed', 'Completed', 'green', 'bg-emerald-50'],
    ['completed', 'voicemail', 'Voicemail', 'violet', 'bg-violet-50'],
    ['completed', 'stopped', 'Stopped', 'cyan', 'bg-cyan-50'],
    ['completed', 'callee-hung-up', 'Callee hung up', 'lime', 'bg-lime-50'],
    ['completed', 'time-limit', 'Time limit', 'teal', 'bg-teal-50'],
    ['busy', 'busy', 'Busy', 'orange', 'bg-orange-50'],
    ['no-answer', 'no-answer', 'No answer', 'yellow', 'bg-amber-50'],
    ['failed', 'failed', 'Failed', 'red', 'bg-rose-50'],
    ['failed', 'cut-by-fault', 'Cut by fault', 'fuchsia', 'bg-fuchsia-50'],
  ])('an ended call (%s, %s) shows its outcome', (status, outcome, label, tone, colour) => {
    render(<StatusBadge status={status} outcome={outcome} />)
    expect(badge()).toHaveTextContent(label)
    expect(badge()).toHaveAttribute('data-tone', tone)
    expect(badge()).toHaveClass(colour)
  })

  it.each([
    ['in-progress', null, 'in-progress', 'blue'],
    ['queued', undefined, 'queued', 'blue'],
    ['', null, 'Unknown', 'slate'],
    ['completed', 'something-else', 'completed', 'green'],
  ])('a call without a known outcome (%s, %s) shows its status', (status, outcome, label, tone) => {
    render(<StatusBadge status={status} outcome={outcome} />)
    expect(badge()).toHaveTextContent(label)
    expect(badge()).toHaveAttribute('data-tone', tone)
  })
})
