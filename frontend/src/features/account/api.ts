import { api, unwrap } from '@/lib/api'
import { updateTimeZone } from '@/components/account/api'

export { profileQuery, type Profile } from '@/components/account/api'

export const accountApi = {
  updateName: (name: string) => unwrap(api.PUT('/api/v1/user/profile', { body: { name } }), 'Failed to update user profile'),
  updateTimeZone,
  changePassword: (old_password: string, new_password: string, new_password_confirmation: string) =>
    unwrap(
      api.PUT('/api/v1/user/password', { body: { old_password, new_password, new_password_confirmation } }),
      'Failed to update user password',
    ),
}
