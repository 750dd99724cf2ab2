import type { LucideIcon } from 'lucide-react'
import type { ReactNode } from 'react'
import { Card } from '@/components/ui/card'
import { cn } from '@/lib/cn'

/** A dashboard card: a label with an icon badge, then its content. */
export function StatCard({ label, icon: Icon, tone = 'indigo', children }: { label: string; icon: LucideIcon; tone?: 'indigo' | 'emerald'; children: ReactNode }) {
  return (
    <Card className="p-5">
      <div className="flex items-center justify-between">
        <p className="text-sm font-medium text-slate-500">{label}</p>
        <span className={cn('rounded-lg p-2', tone === 'indigo' ? 'bg-indigo-50 text-indigo-600' : 'bg-emerald-50 text-emerald-600')}>
          <Icon className="h-5 w-5" aria-hidden />
        </span>
      </div>
      {children}
    </Card>
  )
}
