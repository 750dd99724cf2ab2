/** Where a user adds funds (the Billing page). Every "Please add funds" and every empty state
 * that needs money links here. */
export const BILLING_PATH = '/dashboard/billing'

/** The price of a minute, in cents (the server's COST_PER_MINUTE_CENTS). */
export const PRICE_PER_MINUTE_CENTS = 49
export const PRICE_PER_MINUTE = `$${(PRICE_PER_MINUTE_CENTS / 100).toFixed(2)}`
/** The billing rule in the one wording every page uses (the spec's rule: the rounded-up minutes
 * of the time connected less its first second, times $0.49, from a prepaid balance). Pages that
 * show the price apart from the rest (a figure and its label) use the two halves. */
export const BILLING_UNIT = 'per minute connected, rounded up to the minute'
export const BILLING_RULE = `${PRICE_PER_MINUTE} ${BILLING_UNIT}, from a prepaid balance`
