/** What the running system is made of: the mode every signed-in page reads (carrier and brain),
 * the sandbox network's number plan, and the admin System page's checks. */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api'
import type { components } from '@/lib/api-schema'

type S = components['schemas']
export type Mode = S['Mode']
export type SandboxPlan = S['SandboxPlan']
export type SandboxNumber = S['SandboxNumber']
export type SystemReport = S['SystemReport']
export type SystemComponent = S['ComponentOut']

export const systemKeys = {
  all: ['system'] as const,
}

/** The mode as this browser last read it: the notices it decides are drawn with the page's
 * first frame instead of pushing the page down when the answer comes (layout shift). */
export const MODE_KEY = 'callwright.mode'

function rememberedMode(): Mode | undefined {
  try {
    const raw = localStorage.getItem(MODE_KEY)
    return raw ? (JSON.parse(raw) as Mode) : undefined
  } catch {
    return undefined
  }
}

export const modeQuery = () =>
  queryOptions({
    queryKey: [...systemKeys.all, 'mode'],
    queryFn: async () => {
      const mode = (await unwrap(api.GET('/api/v1/system/mode'), 'Failed to load the system mode')).data
      try {
        localStorage.setItem(MODE_KEY, JSON.stringify(mode))
      } catch {
        // storage refused: the next load asks again first
      }
      return mode
    },
    // Shown at once, and read again (it is stale from the start) in case the server changed.
    initialData: rememberedMode,
    initialDataUpdatedAt: 0,
    // The mode changes only when the operator restarts the server with other settings.
    staleTime: 10 * 60_000,
  })

export const sandboxPlanQuery = () =>
  queryOptions({
    queryKey: [...systemKeys.all, 'sandbox-numbers'],
    queryFn: async () => (await unwrap(api.GET('/api/v1/system/sandbox-numbers'), 'Failed to load the sandbox numbers')).data,
    staleTime: 10 * 60_000,
  })

export const systemReportQuery = () =>
  queryOptions({
    queryKey: [...systemKeys.all, 'admin-report'],
    queryFn: async () => (await unwrap(api.GET('/api/v1/admin/system'), 'Failed to check the system')).data,
  })
