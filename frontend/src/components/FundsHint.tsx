import { Link } from 'react-router'
import { BILLING_PATH, BILLING_RULE } from '@/lib/billing'

/** Under an empty list of calls: how to place the first one and how to pay for it. */
export function FundsHint() {
  return (
    <p className="mt-1 text-xs text-slate-500">
      Place one from{' '}
      <Link to="/dashboard/send-call" className="font-semibold text-indigo-600 hover:underline">
        Send Call
      </Link>
      . Calls cost {BILLING_RULE}:{' '}
      <Link to={BILLING_PATH} className="font-semibold text-indigo-600 hover:underline">
        add funds on the Billing page
      </Link>
      .
    </p>
  )
}
