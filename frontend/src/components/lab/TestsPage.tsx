/** The page of an owner's Tests tab: its header (with the way back to the list), the owner's
 * tabs, and the tab (or why the owner could not be loaded). */
import { ArrowLeft } from 'lucide-react'
import { Link } from 'react-router'
import { PageHeader } from '@/components/kit'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import type { LabOwner } from './api'
import { LabTests } from './LabTests'
import { OwnerTabs } from './OwnerTabs'

export function TestsPage({ owner, title, subtitle, back, error }: { owner: LabOwner; title: string; subtitle: string; back: { to: string; label: string }; error: string | null }) {
  const action = (
    <Button variant="secondary" asChild>
      <Link to={back.to}>
        <ArrowLeft className="h-4 w-4" aria-hidden /> {back.label}
      </Link>
    </Button>
  )
  return (
    <div className="space-y-6">
      <PageHeader title={title} subtitle={subtitle} action={action} />
      <OwnerTabs owner={owner} current="tests" />
      {error ? (
        <Card className="p-6">
          <p role="alert" className="text-sm text-rose-600">
            {error}
          </p>
        </Card>
      ) : (
        <LabTests owner={owner} />
      )}
    </div>
  )
}
