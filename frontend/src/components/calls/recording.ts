/** Save a call's recording as recording_{call_id}.mp3 (user and admin call logs). */
import { ApiError } from '@/lib/api'
import { getToken } from '@/lib/session'
import { notify } from '@/lib/toast'
import { downloadUrl } from './api'

export async function downloadRecording(id: string): Promise<void> {
  const token = getToken()
  const response = await fetch(downloadUrl(id), { credentials: 'include', headers: token ? { Authorization: `Bearer ${token}` } : {} })
  if (!response.ok) throw new ApiError('Failed to download recording', response.status)
  const url = URL.createObjectURL(await response.blob())
  const link = document.createElement('a')
  link.href = url
  link.download = `recording_${id}.mp3`
  document.body.append(link)
  link.click()
  link.remove()
  URL.revokeObjectURL(url)
}

/** `downloadRecording` with the call logs' toasts; `failure` words the error (each log its own way). */
export async function saveRecording(id: string, failure: (error: unknown) => string): Promise<void> {
  try {
    await downloadRecording(id)
    notify.success('Recording downloaded successfully')
  } catch (error) {
    notify.error(failure(error))
  }
}
