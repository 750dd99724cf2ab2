import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api'
import { adminKeys } from './api'

export const OUTBOX_PAGE_SIZE = 10

export const outboxQuery = (page: number) =>
  queryOptions({
    queryKey: [...adminKeys.all, 'mail-outbox', page],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/admin/mail-outbox', { params: { query: { page, per_page: OUTBOX_PAGE_SIZE } } }),
        'Failed to load the e-mail outbox',
      ),
    placeholderData: keepPreviousData,
  })
