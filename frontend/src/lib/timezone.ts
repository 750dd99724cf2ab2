/** Time zones: the browser's, the list a person picks from, and a time shown in a given zone. */

/** The browser's IANA zone ("Europe/Berlin"), or null when the browser does not say. */
export function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null
  } catch {
    return null
  }
}

/** Whether `zone` is an IANA zone this browser knows. */
export function isTimeZone(zone: string): boolean {
  if (!zone) return false
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

/** The zones to choose from: the browser's list (which leaves out "UTC" in some engines), plus
 * UTC and `extra` (a stored zone the list lacks), sorted. */
export function timeZoneChoices(extra?: string | null): string[] {
  const zones = new Set(Intl.supportedValuesOf('timeZone'))
  zones.add('UTC')
  if (extra && isTimeZone(extra)) zones.add(extra)
  return [...zones].sort((a, b) => a.localeCompare(b))
}

/** A moment as a person in `zone` reads it: "Fri, Nov 27, 14:00" (24-hour clock, as the
 * server's notices write it). */
export function formatInZone(iso: string, zone: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return date.toLocaleString(undefined, { weekday: 'short', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: isTimeZone(zone) ? zone : undefined })
}
