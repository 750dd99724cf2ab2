/** /dashboard/developers: API keys, webhook endpoints, the signing secret, the delivery log
 * and copyable snippets (docs/webhooks.md). */
import { PageHeader } from '@/components/kit'
import { ApiKeys } from './ApiKeys'
import { Deliveries } from './Deliveries'
import { Endpoints } from './Endpoints'
import { SigningSecret } from './SigningSecret'
import { Snippets } from './Snippets'

export function DevelopersPage() {
  return (
    <div className="space-y-6">
      <PageHeader title="Developers" subtitle="Use Callwright from your own code: API keys for the /v1 API, and signed webhooks for your calls' events." />
      <ApiKeys />
      <Endpoints />
      <SigningSecret />
      <Deliveries />
      <Snippets />
    </div>
  )
}
