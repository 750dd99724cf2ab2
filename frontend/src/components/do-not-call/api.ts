/** The do-not-call lists' calls: a user's own list (`/do-not-call`) and the admins' global list
 * (`/admin/do-not-call`) share their shapes (docs/compliance.md). */
import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { api, ApiError, fileBody, unwrap } from '@/lib/api'
import type { components } from '@/lib/api-schema'

type S = components['schemas']
export type DoNotCallEntry = S['DoNotCallOut']
export type ImportReport = S['ImportReport']
export type Scope = 'user' | 'global'

export const DNC_PAGE_SIZE = 20
/** The server's limits (compliance/schemas.py). */
export const NOTE_MAX = 500
export const NUMBER_MAX = 40

export const dncKeys = {
  all: (scope: Scope) => ['do-not-call', scope] as const,
  page: (scope: Scope, search: string, page: number) => ['do-not-call', scope, search, page] as const,
}

const LIST = { user: '/api/v1/do-not-call', global: '/api/v1/admin/do-not-call' } as const
const IMPORT = { user: '/api/v1/do-not-call/import', global: '/api/v1/admin/do-not-call/import' } as const
const EXPORT = { user: '/api/v1/do-not-call/export', global: '/api/v1/admin/do-not-call/export' } as const
const ENTRY = { user: '/api/v1/do-not-call/{entry_id}', global: '/api/v1/admin/do-not-call/{entry_id}' } as const
export const EXPORT_NAME = { user: 'do-not-call.csv', global: 'global-do-not-call.csv' } as const

export const dncQuery = (scope: Scope, search: string, page: number) =>
  queryOptions({
    queryKey: dncKeys.page(scope, search, page),
    queryFn: () =>
      unwrap(api.GET(LIST[scope], { params: { query: { search, page, per_page: DNC_PAGE_SIZE } } }), 'Failed to load the do-not-call list'),
    placeholderData: keepPreviousData,
  })

export const dncApi = {
  add: (scope: Scope, phone_number: string, note: string | null) =>
    unwrap(api.POST(LIST[scope], { body: { phone_number, note } }), 'Failed to add the number'),
  remove: (scope: Scope, id: number) => unwrap(api.DELETE(ENTRY[scope], { params: { path: { entry_id: id } } }), 'Failed to remove the number'),
  /** Sends the file as multipart form data; the answer is the import's report. */
  importFile: async (scope: Scope, file: File): Promise<ImportReport> => {
    const res = await unwrap(
      api.POST(IMPORT[scope], fileBody(file)),
      'Failed to import the file',
    )
    return res.data
  },
  /** The whole list as a CSV blob (fetched with the session's token, then saved). */
  exportCsv: async (scope: Scope): Promise<Blob> => {
    const { data, response } = await api.GET(EXPORT[scope], { parseAs: 'blob' })
    if (!response.ok || !data) throw new ApiError('Failed to export the list', response.status)
    return data
  },
}
