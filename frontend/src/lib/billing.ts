/** Where a user adds funds (the Billing page). Every "Please add funds" and every empty state
 * that needs money links here. */
export const BILLING_PATH = '/dashboard/billing'
