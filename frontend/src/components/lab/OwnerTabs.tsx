/** The tabs of an agent's (or a flow's) page: its settings (or the flow's editor) and its
 * Tests; each a link, so either can be linked and reloaded. */
import { FlaskConical, Settings2 } from 'lucide-react'
import { Link } from 'react-router'
import { cn } from '@/lib/cn'
import { testsPath, type LabOwner } from './api'

const TAB = 'inline-flex items-center gap-2 border-b-2 px-3 py-2 text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500'

export function OwnerTabs({ owner, current }: { owner: LabOwner; current: 'settings' | 'tests' }) {
  const home = `/dashboard/${owner.kind === 'agent' ? 'agents' : 'flows'}/${encodeURIComponent(owner.id)}`
  const tabs = [
    { key: 'settings', to: home, label: owner.kind === 'agent' ? 'Settings' : 'Editor', icon: Settings2 },
    { key: 'tests', to: testsPath(owner), label: 'Tests', icon: FlaskConical },
  ] as const
  return (
    <nav aria-label={owner.kind === 'agent' ? 'Agent' : 'Flow'} className="flex gap-1 border-b border-slate-200">
      {tabs.map(({ key, to, label, icon: Icon }) => (
        <Link key={key} to={to} aria-current={current === key ? 'page' : undefined} className={cn(TAB, current === key ? 'border-indigo-600 text-indigo-700' : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900')}>
          <Icon className="h-4 w-4" aria-hidden /> {label}
        </Link>
      ))}
    </nav>
  )
}
