import { BarChart3, Home, LayoutDashboard, ListChecks, PhoneOutgoing, UserCog, type LucideIcon } from 'lucide-react'

export interface NavItem {
  to: string
  label: string
  icon: LucideIcon
  /** Active only on an exact match (the area's home). */
  end?: boolean
}

export const USER_NAV: NavItem[] = [
  { to: '/dashboard', label: 'Home', icon: Home, end: true },
  { to: '/dashboard/send-call', label: 'Send Call', icon: PhoneOutgoing },
  { to: '/dashboard/analysis', label: 'Analysis', icon: BarChart3 },
  { to: '/dashboard/call-logs', label: 'Call Logs', icon: ListChecks },
  { to: '/dashboard/account', label: 'Account', icon: UserCog },
]

export const ADMIN_NAV: NavItem[] = [
  { to: '/admin', label: 'Dashboard', icon: LayoutDashboard, end: true },
]
