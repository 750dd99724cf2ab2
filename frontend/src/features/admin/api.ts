/** The admin back-office calls (spec section 7) with the spec's fallback messages. */
import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api'
import type { components } from '@/lib/api-schema'

type S = components['schemas']
export type AdminUser = S['AdminUserOut']
export type AdminCall = S['AdminCall']
export type Report = S['ReportOut']
export type Submission = S['SubmissionOut']
export type AdminPost = S['PostOut']
export type Charts = S['Charts']
export type AdminStats = S['AdminStats']
export type TopUser = S['TopUser']
export type NewUser = S['AddUserIn']
export type UserChanges = S['UpdateUserIn']
export type PostDraft = S['PostIn']

export const USERS_PAGE_SIZE = 7
export const CALL_LOGS_PAGE_SIZE = 10
export const REPORTS_PAGE_SIZE = 10
export const POSTS_PAGE_SIZE = 7
export const INBOX_PAGE_SIZE = 10
export const HOME_ROWS = 5

/** The back-office's query keys: each query's key starts from one of these, and invalidations
 * name the same prefixes (never a retyped array). */
export const adminKeys = {
  all: ['admin'] as const,
  posts: ['admin', 'posts'] as const,
  inbox: ['admin', 'inbox'] as const,
  testCalls: ['admin', 'test-calls'] as const,
}

/** The caller's UTC offset in minutes, for charts by weekday and hour. */
const tzOffset = () => -new Date().getTimezoneOffset()

export const statsQuery = () =>
  queryOptions({
    queryKey: [...adminKeys.all, 'stats'],
    queryFn: async () => (await unwrap(api.GET('/api/v1/admin/stats'), 'Failed to fetch admin stats')).data,
  })

export const chartsQuery = () =>
  queryOptions({
    queryKey: [...adminKeys.all, 'analytics'],
    queryFn: async () =>
      (await unwrap(api.GET('/api/v1/admin/analytics', { params: { query: { tz_offset: tzOffset() } } }), 'Failed to fetch admin stats')).data,
  })

export const topUsersQuery = () =>
  queryOptions({
    queryKey: [...adminKeys.all, 'top-users'],
    queryFn: async () => (await unwrap(api.GET('/api/v1/admin/top-users', { params: { query: { limit: HOME_ROWS } } }), 'Failed to fetch users')).data,
  })

export const usersQuery = (q: string, page: number) =>
  queryOptions({
    queryKey: [...adminKeys.all, 'users', q, page],
    queryFn: () => unwrap(api.GET('/api/v1/admin/users', { params: { query: { q: q || undefined, page, per_page: USERS_PAGE_SIZE } } }), 'Failed to fetch users'),
    placeholderData: keepPreviousData,
  })

export const callsQuery = (q: string, sort: string, page: number, perPage = CALL_LOGS_PAGE_SIZE) =>
  queryOptions({
    queryKey: [...adminKeys.all, 'calls', q, sort, page, perPage],
    queryFn: () =>
      unwrap(api.GET('/api/v1/admin/calls', { params: { query: { q: q || undefined, sort, page, per_page: perPage } } }), 'Failed to fetch all calls'),
    placeholderData: keepPreviousData,
  })

export const reportsQuery = (page: number) =>
  queryOptions({
    queryKey: [...adminKeys.all, 'reports', page],
    queryFn: () => unwrap(api.GET('/api/v1/admin/reports', { params: { query: { page, per_page: REPORTS_PAGE_SIZE } } }), 'Failed to fetch reports'),
    placeholderData: keepPreviousData,
  })

export const postsQuery = (page: number) =>
  queryOptions({
    queryKey: [...adminKeys.posts, page],
    queryFn: async () => (await unwrap(api.GET('/api/v1/admin/posts', { params: { query: { page, per_page: POSTS_PAGE_SIZE } } }), 'Failed to fetch posts')).data,
    placeholderData: keepPreviousData,
  })

export const inboxQuery = (page: number) =>
  queryOptions({
    queryKey: [...adminKeys.inbox, page],
    queryFn: () => unwrap(api.GET('/api/v1/admin/form-inbox', { params: { query: { page, per_page: INBOX_PAGE_SIZE } } }), 'Failed to fetch form inbox'),
    placeholderData: keepPreviousData,
  })

export const unreadQuery = () =>
  queryOptions({
    queryKey: [...adminKeys.inbox, 'unread'],
    queryFn: async () => (await unwrap(api.GET('/api/v1/admin/form-inbox/unread-count'), 'Failed to fetch form inbox')).data.unread,
    refetchInterval: 60_000,
  })

export const taskQuery = () =>
  queryOptions({
    queryKey: [...adminKeys.all, 'test-call-task'],
    queryFn: async () => (await unwrap(api.GET('/api/v1/admin/test-call-task'), 'Failed to fetch test call task')).data.task,
  })

export const todayQuery = () =>
  queryOptions({
    queryKey: [...adminKeys.testCalls, 'today'],
    queryFn: async () => (await unwrap(api.GET('/api/v1/admin/test-calls-today'), 'Failed to fetch test calls count for today')).data.test_calls_today,
  })

export const weekQuery = () =>
  queryOptions({
    queryKey: [...adminKeys.testCalls, 'week'],
    queryFn: async () => (await unwrap(api.GET('/api/v1/admin/test-calls-this-week'), 'Failed to fetch weekly test calls count')).data.test_calls_this_week,
  })

export const adminApi = {
  addUser: (body: NewUser) => unwrap(api.POST('/api/v1/admin/add-user', { body }), 'Failed to add user'),
  updateUser: (id: number, body: UserChanges) => unwrap(api.PUT('/api/v1/admin/users/{user_id}', { params: { path: { user_id: id } }, body }), 'Failed to update user'),
  deleteUser: (id: number) => unwrap(api.DELETE('/api/v1/admin/users/{user_id}', { params: { path: { user_id: id } } }), 'Failed to delete user'),
  addBalance: (id: number, amount: number) =>
    unwrap(api.PUT('/api/v1/admin/users/{user_id}/balance', { params: { path: { user_id: id } }, body: { amount } }), 'Failed to update balance'),
  createPost: (body: PostDraft) => unwrap(api.POST('/api/v1/admin/posts', { body }), 'Failed to create post'),
  updatePost: (id: number, body: PostDraft) => unwrap(api.PUT('/api/v1/admin/posts/{post_id}', { params: { path: { post_id: id } }, body }), 'Failed to update post'),
  deletePost: (id: number) => unwrap(api.DELETE('/api/v1/admin/posts/{post_id}', { params: { path: { post_id: id } } }), 'Failed to delete post'),
  markRead: (id: number) =>
    unwrap(api.PATCH('/api/v1/admin/form-submissions/{submission_id}/mark-as-read', { params: { path: { submission_id: id } } }), 'Failed to mark form submission as read'),
  saveTask: (task: string) => unwrap(api.PUT('/api/v1/admin/test-call-task', { body: { task } }), 'Failed to update test call task'),
}
