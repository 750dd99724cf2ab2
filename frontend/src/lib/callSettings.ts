/** The choices of a call's settings, as Send Call and the agent editor offer them. */
export const BACKGROUNDS = [
  { value: 'null', label: 'Default (quiet phone static)' },
  { value: 'office', label: 'Office' },
  { value: 'cafe', label: 'Cafe' },
  { value: 'restaurant', label: 'Restaurant' },
  { value: 'none', label: 'None' },
] as const
export type Background = (typeof BACKGROUNDS)[number]['value']
export const BACKGROUND_VALUES = BACKGROUNDS.map((b) => b.value) as [Background, ...Background[]]

/** The ambience a call had, in the words Send Call offers it: "null" is the default quiet phone
 * static (it plays under the agent), only "none" is silence. */
export function backgroundLabel(value: string): string {
  return BACKGROUNDS.find((b) => b.value === value)?.label ?? value
}

/** What the agent does when voicemail answers. */
export const VOICEMAIL_ACTIONS = [
  { value: 'leave_message', label: 'Leave a message' },
  { value: 'hangup', label: 'Hang up' },
] as const
export type VoicemailAction = (typeof VOICEMAIL_ACTIONS)[number]['value']
export const VOICEMAIL_VALUES = VOICEMAIL_ACTIONS.map((v) => v.value) as [VoicemailAction, ...VoicemailAction[]]

/** Used when the server lists no voices (the spec's fallback). */
export const DEFAULT_VOICE = 'tanner-british'
