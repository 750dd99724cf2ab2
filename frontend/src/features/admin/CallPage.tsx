/** Any call's page for an admin (`/admin/calls/:callId`), with the user who placed it. */
import { useParams } from 'react-router'
import { CallPageView } from '@/components/calls/CallPageView'

export function AdminCallPage() {
  const { callId = '' } = useParams()
  return <CallPageView key={callId} callId={callId} scope="admin" backTo="/admin/call-logs" backLabel="Call Logs" />
}
