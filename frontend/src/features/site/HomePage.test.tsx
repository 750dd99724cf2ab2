import { fireEvent, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { BILLING_RULE, BILLING_UNIT } from '@/lib/billing'
import { renderApp } from '@/testing/render'
import demo from './demo/demo-call.json'

describe('Landing page', () => {
  it('sends every Get Started to sign-up and every plan to billing with its amount', async () => {
    renderApp('/')
    const starts = await screen.findAllByRole('link', { name: /Get Started/ })
    expect(starts.length).toBeGreaterThanOrEqual(2)
    for (const link of starts) expect(link).toHaveAttribute('href', '/register')
    expect(within(screen.getByTestId('plan-25')).getByRole('link', { name: 'Add $25' })).toHaveAttribute('href', '/dashboard/billing?amount=25')
    expect(within(screen.getByTestId('plan-enterprise')).getByRole('link', { name: 'Contact Sales' })).toHaveAttribute('href', '/enterprise')
    for (const claim of ['2,000+', '99.99%', '85%', '68%', '1:42', 'white-label']) expect(document.body.textContent).not.toContain(claim)
  })

  it('reads the typing headline once, whole, and never as it types', async () => {
    renderApp('/')
    const heading = await screen.findByRole('heading', { level: 1 })
    expect(heading).toHaveAccessibleName(
      'AI agents that call your customers to qualify your leads, confirm appointments, follow up on quotes and win back customers',
    )
    const typed = screen.getByTestId('typed-headline')
    expect(typed.closest('[aria-hidden="true"]')).not.toBeNull()
    expect(heading.querySelector('[aria-live]')).toBeNull()
  })

  it('quotes no customer that never spoke, dates no "early bird" offer, and words the billing rule one way', async () => {
    renderApp('/')
    await screen.findByRole('heading', { level: 1 })
    expect(document.getElementById('testimonials')).toBeNull()
    for (const invented of ['Maria Alvarez', 'David Chen', 'Priya Natarajan', 'out of 5 stars']) expect(document.body.textContent).not.toContain(invented)
    expect(document.body.textContent).not.toMatch(/early bird/i)
    const text = document.body.textContent ?? ''
    expect(text).toContain(BILLING_RULE)
    // No other wording of the price: every "$0.49" on the page is the rule's (or its figure, whose label is the rule's unit).
    for (const other of ['$0.49 per minute, prepaid', 'billed by the minute', 'per minute of call', 'a minute, prepaid']) expect(text).not.toContain(other)
    expect(screen.getAllByText(BILLING_UNIT).length).toBeGreaterThan(0)
  })
})

describe('Sign-in pages', () => {
  it('carry no dated "early bird" note and word the billing rule as the landing does', async () => {
    renderApp('/login')
    await screen.findByRole('button', { name: 'Login' })
    const text = document.body.textContent ?? ''
    expect(text).not.toMatch(/early bird/i)
    expect(text).not.toContain('second-rounded')
    expect(text).toContain(BILLING_RULE)
  })
})

describe('Demo call', () => {
  beforeEach(() => {
    // jsdom has no media playback: play and pause only report what a browser would.
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
      this.dispatchEvent(new Event('play'))
      return Promise.resolve()
    })
    vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (this: HTMLMediaElement) {
      this.dispatchEvent(new Event('pause'))
    })
  })
  afterEach(() => vi.restoreAllMocks())

  it('plays the recorded call and shows each line of its transcript once its time comes', async () => {
    renderApp('/')
    const seconds = Math.floor(demo.seconds)
    const label = `Play the demo call (${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')})`
    await userEvent.click(await screen.findByRole('button', { name: label }))
    const log = screen.getByRole('log', { name: 'Demo call transcript' })
    expect(within(log).getByText(/Ringing/)).toBeInTheDocument()
    const audio = screen.getByTestId('demo-player').querySelector('audio') as HTMLAudioElement
    expect(audio.play).toHaveBeenCalled()
    const [first, second] = demo.lines
    Object.defineProperty(audio, 'currentTime', { value: first.at + 0.01, configurable: true })
    fireEvent.timeUpdate(audio)
    expect(within(log).getByText(first.text)).toBeInTheDocument()
    expect(within(log).queryByText(second.text)).not.toBeInTheDocument()
    Object.defineProperty(audio, 'currentTime', { value: second.at + 0.01, configurable: true })
    fireEvent.timeUpdate(audio)
    expect(within(log).getByText(second.text)).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Pause the demo call' }))
    expect(screen.getByRole('button', { name: 'Play the demo call' })).toBeInTheDocument()
  })
})
