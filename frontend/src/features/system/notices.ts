/** Where each notice's dismissal is remembered (localStorage, this browser). */
export const DISMISSED_KEY = {
  sandbox: 'callwright.notice.sandbox.dismissed',
  offlineBrain: 'callwright.notice.offline-brain.dismissed',
} as const
