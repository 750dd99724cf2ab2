/** A call's own page for its owner (`/dashboard/calls/:callId`): Call Logs rows lead here. */
import { useParams } from 'react-router'
import { CallPageView } from '@/components/calls/CallPageView'

export function CallPage() {
  const { callId = '' } = useParams()
  return <CallPageView key={callId} callId={callId} scope="user" backTo="/dashboard/call-logs" backLabel="Call Logs" />
}
