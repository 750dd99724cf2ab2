/** Stripe.js for the payment form. Real Stripe: @stripe/stripe-js loads it from js.stripe.com.
 * Anywhere else (localstripe, the local emulator), the stand-in that the emulator serves is
 * loaded first by a script tag of its own: it defines `window.Stripe`, which loadStripe then
 * uses instead of fetching Stripe's. docs/billing.md. */
import type { Stripe } from '@stripe/stripe-js'
import { loadStripe } from '@stripe/stripe-js/pure'

const STRIPE_JS = 'https://js.stripe.com/v3/'
let loading: Promise<Stripe | null> | null = null

function injectScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script')
    script.src = src
    script.async = true
    script.addEventListener('load', () => resolve())
    script.addEventListener('error', () => reject(new Error('Stripe.js could not be loaded')))
    document.head.append(script)
  })
}

/** One Stripe object per page, whichever Stripe.js the server names. */
export function getStripe(publishableKey: string, scriptUrl: string): Promise<Stripe | null> {
  if (!loading) {
    loading = (async () => {
      if (scriptUrl !== STRIPE_JS && !('Stripe' in window)) await injectScript(scriptUrl)
      return loadStripe(publishableKey)
    })()
    loading.catch(() => {
      loading = null
    })
  }
  return loading
}
