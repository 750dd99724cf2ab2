/** Send-call screen (spec sections 2, 4, 5, 8): prompt and voice settings, the live transcript,
 * call settings with the balance, and the 2 latest calls. Its parts live in `send/`: the form
 * (fields, defaults, rules), the cards, and `useSendCall` (placing, stopping, picking up). */
import { useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { getUser } from '@/lib/session'
import { RecentCalls } from '@/components/calls/RecentCalls'
import { DEFAULTS, type SendCallForm } from './send/form'
import { CallSettingsCard } from './send/CallSettingsCard'
import { LivePanel } from './send/LivePanel'
import { PromptCard } from './send/PromptCard'
import { useBalance } from './send/useBalance'
import { usePhoneField } from './send/usePhoneField'
import { useSendCall } from './send/useSendCall'
import { useVoiceChoice } from './send/useVoiceChoice'

const prefersReducedMotion = () => typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches

export function SendCallPage() {
  const userId = getUser()?.id ?? 0
  const form = useForm<SendCallForm>({ defaultValues: DEFAULTS })
  const voices = useVoiceChoice(form)
  const balance = useBalance(userId)
  const phoneField = usePhoneField(form)
  /** Values of the {{variables}} by name (kept beside the form: a name may hold dots). */
  const [variables, setVariables] = useState<Record<string, string>>({})
  /** The transcript panel: brought into view (and focused) when a call starts. */
  const transcriptPanel = useRef<HTMLDivElement | null>(null)
  /** The call is placed: its transcript comes into view (on a phone it is above the button) and
   * takes the focus the disabled button gives up, so a keyboard user is where the call is. */
  const showTranscript = () => {
    const panel = transcriptPanel.current
    if (!panel) return
    panel.scrollIntoView?.({ block: 'start', behavior: prefersReducedMotion() ? 'auto' : 'smooth' })
    panel.focus({ preventScroll: true })
  }
  const sendCall = useSendCall(userId, form, { balance, variables, voice: voices.chosen, tidyPhone: phoneField.tidy, onPlaced: showTranscript })

  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Send Call</h1>
        <p className="mt-1 text-sm text-slate-500">Write a prompt, pick a voice and a number; watch the conversation live.</p>
      </header>
      <div className="grid gap-6 lg:grid-cols-2 2xl:grid-cols-3">
        <PromptCard
          form={form}
          voices={voices}
          variables={variables}
          onVariable={(name, value) => setVariables((current) => ({ ...current, [name]: value }))}
          variablesProblem={sendCall.variablesProblem}
          active={sendCall.call.active}
        />
        <LivePanel ref={transcriptPanel} call={sendCall.call} notice={sendCall.notice} />
        <div className="grid min-w-0 content-start items-start gap-6 lg:col-span-2 lg:grid-cols-2 2xl:col-span-1 2xl:grid-cols-1">
          <CallSettingsCard form={form} balance={balance} phoneField={phoneField} sendCall={sendCall} />
          <RecentCalls userId={userId} limit={2} viewAllTo="/dashboard/call-logs" title="Recent Calls" />
        </div>
      </div>
    </div>
  )
}
