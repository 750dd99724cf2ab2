import { BarChart3, Bot, Code2, CreditCard, Flag, Home, Inbox, LayoutDashboard, ListChecks, Megaphone, MessageSquareText, Newspaper, PhoneOff, PhoneOutgoing, Server, UserCog, Users, Workflow, type LucideIcon } from 'lucide-react'

export interface NavItem {
  to: string
  label: string
  icon: LucideIcon
  /** Active only on an exact match (the area's home). */
  end?: boolean
  /** Shows an indicator dot (the inbox's unread submissions). */
  dot?: boolean
}

export const USER_NAV: NavItem[] = [
  { to: '/dashboard', label: 'Home', icon: Home, end: true },
  { to: '/dashboard/send-call', label: 'Send Call', icon: PhoneOutgoing },
  { to: '/dashboard/agents', label: 'Agents', icon: Bot },
  { to: '/dashboard/flows', label: 'Flows', icon: Workflow },
  { to: '/dashboard/campaigns', label: 'Campaigns', icon: Megaphone },
  { to: '/dashboard/analysis', label: 'Analysis', icon: BarChart3 },
  { to: '/dashboard/call-logs', label: 'Call Logs', icon: ListChecks },
  { to: '/dashboard/do-not-call', label: 'Do not call', icon: PhoneOff },
  { to: '/dashboard/billing', label: 'Billing', icon: CreditCard },
  { to: '/dashboard/developers', label: 'Developers', icon: Code2 },
  { to: '/dashboard/account', label: 'Account', icon: UserCog },
]

export const ADMIN_NAV: NavItem[] = [
  { to: '/admin', label: 'Dashboard', icon: LayoutDashboard, end: true },
  { to: '/admin/user-management', label: 'Users', icon: Users },
  { to: '/admin/analysis', label: 'Analysis', icon: BarChart3 },
  { to: '/admin/call-logs', label: 'Call Logs', icon: ListChecks },
  { to: '/admin/reports', label: 'Reports', icon: Flag },
  { to: '/admin/blogs', label: 'Posts', icon: Newspaper },
  { to: '/admin/inbox', label: 'Inbox', icon: Inbox },
  { to: '/admin/do-not-call', label: 'Do not call', icon: PhoneOff },
  { to: '/admin/test-call-task', label: 'Test Call Prompt', icon: MessageSquareText },
  { to: '/admin/system', label: 'System', icon: Server },
]
