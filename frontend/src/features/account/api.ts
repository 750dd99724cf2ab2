import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api'

export const profileQuery = queryOptions({
  queryKey: ['profile'],
  queryFn: async () => (await unwrap(api.GET('/api/v1/user/profile'), 'Failed to fetch user profile')).data,
})

export const accountApi = {
  updateName: (name: string) => unwrap(api.PUT('/api/v1/user/profile', { body: { name } }), 'Failed to update user profile'),
  changePassword: (old_password: string, new_password: string, new_password_confirmation: string) =>
    unwrap(
      api.PUT('/api/v1/user/password', { body: { old_password, new_password, new_password_confirmation } }),
      'Failed to update user password',
    ),
}
