import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/card'
import { messageOf } from '@/lib/api'
import { useGoogleSignIn } from '@/lib/clientConfig'
import { notify } from '@/lib/toast'
import { authApi } from './api'

/** "Continue with Google", with the "or" rule above it; nothing at all on a server where Google
 * sign-in is not configured (GET client-config). */
export function GoogleButton({ label = 'Continue with Google' }: { label?: string }) {
  const enabled = useGoogleSignIn()
  const [loading, setLoading] = useState(false)
  if (!enabled) return null

  const start = async () => {
    setLoading(true)
    try {
      const result = await authApi.googleUrl()
      window.location.assign(result.redirect_url)
    } catch (error) {
      notify.error(messageOf(error, 'Failed to initiate Google login.'))
      setLoading(false)
    }
  }

  return (
    <>
      <div className="my-6 flex items-center gap-3 text-xs uppercase tracking-wide text-slate-400">
        <span className="h-px flex-1 bg-slate-200" />
        or
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      <Button type="button" variant="secondary" className="w-full" size="lg" onClick={start} disabled={loading}>
        {loading ? <Spinner /> : <GoogleIcon />}
        {label}
      </Button>
    </>
  )
}

function GoogleIcon() {
  return (
    <svg viewBox="0 0 24 24" className="h-4 w-4" aria-hidden>
      <path fill="#4285F4" d="M22.5 12.3c0-.8-.1-1.5-.2-2.2H12v4.2h5.9a5 5 0 0 1-2.2 3.3v2.7h3.6c2-1.9 3.2-4.7 3.2-8z" />
      <path fill="#34A853" d="M12 23c3 0 5.5-1 7.3-2.7l-3.6-2.7c-1 .7-2.2 1.1-3.7 1.1-2.9 0-5.3-1.9-6.2-4.5H2.1v2.8A11 11 0 0 0 12 23z" />
      <path fill="#FBBC05" d="M5.8 14.2a6.6 6.6 0 0 1 0-4.3V7.1H2.1a11 11 0 0 0 0 9.9l3.7-2.8z" />
      <path fill="#EA4335" d="M12 5.4c1.6 0 3.1.6 4.2 1.7l3.2-3.2A11 11 0 0 0 2.1 7.1l3.7 2.8C6.7 7.3 9.1 5.4 12 5.4z" />
    </svg>
  )
}
