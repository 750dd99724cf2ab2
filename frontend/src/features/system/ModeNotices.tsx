/** The signed-in app's notices about what is not real on this server: calls that go to the
 * sandbox network, and a brain that is the offline demo policy. Each can be dismissed; the
 * dismissal is remembered in this browser (localStorage). */
import { useQuery } from '@tanstack/react-query'
import { BrainCircuit, FlaskConical, X, type LucideIcon } from 'lucide-react'
import { useState, type ReactNode } from 'react'
import { Link } from 'react-router'
import { getUser } from '@/lib/session'
import { modeQuery } from './api'
import { DISMISSED_KEY } from './notices'

type NoticeId = keyof typeof DISMISSED_KEY

function readDismissed(id: NoticeId): boolean {
  try {
    return localStorage.getItem(DISMISSED_KEY[id]) === '1'
  } catch {
    return false // storage refused (private mode): show it, and forget the dismissal on reload
  }
}

function useDismissal(id: NoticeId): [boolean, () => void] {
  const [dismissed, setDismissed] = useState(() => readDismissed(id))
  const dismiss = () => {
    setDismissed(true)
    try {
      localStorage.setItem(DISMISSED_KEY[id], '1')
    } catch {
      // kept for this page's life only
    }
  }
  return [dismissed, dismiss]
}

function Notice({ id, icon: Icon, title, children }: { id: NoticeId; icon: LucideIcon; title: string; children: ReactNode }) {
  const [dismissed, dismiss] = useDismissal(id)
  if (dismissed) return null
  return (
    <section role="region" aria-label={title} data-testid={`notice-${id}`} className="flex gap-3 rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-950">
      <Icon className="mt-0.5 h-5 w-5 shrink-0 text-amber-600" aria-hidden />
      <div className="flex-1">
        <p className="font-semibold">{title}</p>
        <div className="mt-0.5 text-amber-900">{children}</div>
      </div>
      <button
        type="button"
        onClick={dismiss}
        aria-label={`Dismiss: ${title}`}
        className="-m-1 h-8 w-8 shrink-0 rounded-lg p-1.5 text-amber-700 hover:bg-amber-100 focus-visible:outline-2 focus-visible:outline-amber-600"
      >
        <X className="h-5 w-5" aria-hidden />
      </button>
    </section>
  )
}

/** Nothing while the mode loads or if it cannot be read (the pages say what failed themselves). */
export function ModeNotices() {
  const mode = useQuery(modeQuery())
  if (!mode.data) return null
  const { carrier, brain } = mode.data
  const isAdmin = getUser()?.role === 'admin'
  return (
    <div className="mb-6 space-y-3 empty:hidden">
      {carrier === 'sandbox' && (
        <Notice id="sandbox" icon={FlaskConical} title="Calls go to the sandbox network">
          No real phone rings: this server places calls on its built-in sandbox network, where the number you dial picks a simulated callee (a person who talks, voicemail, busy,
          no answer...). Calls are still recorded, transcribed and billed.{' '}
          <Link to="/dashboard/sandbox" className="font-semibold underline underline-offset-2 hover:text-amber-700">
            See the sandbox numbers
          </Link>
        </Notice>
      )}
      {brain === 'offline' && (
        <Notice id="offlineBrain" icon={BrainCircuit} title="The agent's brain is the offline demo policy">
          No language model is set, so the agent follows a built-in, scripted conversation in English: it greets from your prompt, asks its questions, recognises yes, no,
          later, not interested and wrong person, and ends politely. To give it a real model, the operator sets <code className="font-mono text-xs">LLM_BASE_URL</code>,{' '}
          <code className="font-mono text-xs">LLM_API_KEY</code> and <code className="font-mono text-xs">LLM_MODEL</code> to any OpenAI-compatible endpoint (OpenAI, Groq,
          Ollama, vLLM, llama.cpp) and restarts the server.
          {isAdmin && (
            <>
              {' '}
              <Link to="/admin/system" className="font-semibold underline underline-offset-2 hover:text-amber-700">
                Open the System page
              </Link>
            </>
          )}
        </Notice>
      )}
    </div>
  )
}
