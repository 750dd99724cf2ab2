import { LogOut, Menu, X } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link, NavLink, useNavigate } from 'react-router'
import type { NavItem } from '@/app/nav'
import { LogoMark } from '@/components/Logo'
import { authApi } from '@/features/auth/api'
import { ApiError } from '@/lib/api'
import { cn } from '@/lib/cn'
import { clearSession, getUser, getUserName } from '@/lib/session'

interface SidebarProps {
  items: NavItem[]
  /** A link to the other area (admins only). */
  switchTo?: { to: string; label: string }
}

/** Collapsed rail that expands on hover on wide screens; a drawer with a backdrop on small ones. */
export function Sidebar({ items, switchTo }: SidebarProps) {
  const [open, setOpen] = useState(false)
  const navigate = useNavigate()
  const name = getUserName()

  useEffect(() => {
    if (!open) return
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false)
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [open])

  const logout = async () => {
    try {
      await authApi.logout()
    } catch (error) {
      // A failed logout changes nothing on screen, unless the server says we are signed out already.
      if (!(error instanceof ApiError && error.status === 401)) return
    }
    clearSession()
    navigate('/login', { replace: true })
  }

  const close = () => setOpen(false)

  return (
    <>
      <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b border-slate-200 bg-white/90 px-4 backdrop-blur lg:hidden">
        <button
          type="button"
          onClick={() => setOpen(true)}
          className="rounded-lg p-2 text-slate-600 hover:bg-slate-100"
          aria-label="Open menu"
          aria-expanded={open}
          aria-controls="sidebar"
        >
          <Menu className="h-5 w-5" />
        </button>
        <Link to="/" className="flex items-center gap-2 font-bold">
          <LogoMark className="h-7 w-7" /> Callwright
        </Link>
      </header>

      <div
        className={cn('fixed inset-0 z-40 bg-slate-900/40 transition-opacity lg:hidden', open ? 'opacity-100' : 'pointer-events-none opacity-0')}
        onClick={close}
        aria-hidden
        data-testid="sidebar-backdrop"
      />

      <aside
        id="sidebar"
        aria-label="Main navigation"
        className={cn(
          'group/sidebar fixed inset-y-0 left-0 z-50 flex w-64 flex-col border-r border-slate-200 bg-white transition-all duration-200',
          open ? 'translate-x-0 shadow-xl' : '-translate-x-full',
          'lg:translate-x-0 lg:w-[72px] lg:hover:w-64 lg:hover:shadow-xl',
        )}
      >
        <div className="flex h-16 items-center justify-between px-4">
          <Link to="/" className="flex items-center gap-3 overflow-hidden font-bold" onClick={close}>
            <LogoMark className="h-9 w-9 flex-none" />
            <span className="whitespace-nowrap text-lg lg:opacity-0 lg:transition-opacity lg:group-hover/sidebar:opacity-100">
              Callwright
            </span>
          </Link>
          <button type="button" onClick={close} className="rounded-lg p-1.5 text-slate-500 hover:bg-slate-100 lg:hidden" aria-label="Close menu">
            <X className="h-5 w-5" />
          </button>
        </div>
        <SidebarNav items={items} switchTo={switchTo} onFollow={close} />
        <SidebarUser name={name} onLogout={logout} />
      </aside>
    </>
  )
}

/** The area's links (a dot on one with news) and, for admins, the way to the other area. */
function SidebarNav({ items, switchTo, onFollow }: SidebarProps & { onFollow: () => void }) {
  return (
    <nav className="flex-1 space-y-1 overflow-y-auto px-3 py-4">
      {items.map((item) => (
        <NavLink
          key={item.to}
          to={item.to}
          end={item.end}
          onClick={onFollow}
          className={({ isActive }) =>
            cn(
              'flex h-11 items-center gap-3 rounded-lg px-3 text-sm font-medium transition-colors',
              isActive ? 'bg-indigo-50 text-indigo-700' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
            )
          }
        >
          <span className="relative flex-none">
            <item.icon className="h-5 w-5" aria-hidden />
            {item.dot && <span className="absolute -right-1 -top-1 h-2.5 w-2.5 rounded-full bg-rose-500 ring-2 ring-white" data-testid={`dot-${item.to}`} aria-label="unread" />}
          </span>
          <span className="whitespace-nowrap lg:opacity-0 lg:transition-opacity lg:group-hover/sidebar:opacity-100">{item.label}</span>
        </NavLink>
      ))}
      {switchTo && (
        <Link
          to={switchTo.to}
          onClick={onFollow}
          className="mt-4 flex h-9 items-center rounded-lg px-3 text-xs font-semibold uppercase tracking-wide text-slate-400 hover:text-indigo-600 lg:opacity-0 lg:group-hover/sidebar:opacity-100"
        >
          {switchTo.label}
        </Link>
      )}
    </nav>
  )
}

/** Who is signed in, and the way out. */
function SidebarUser({ name, onLogout }: { name: string; onLogout: () => void }) {
  const initial = (name.trim()[0] ?? 'U').toUpperCase()
  return (
    <div className="border-t border-slate-200 p-3">
      <div className="flex items-center gap-3 overflow-hidden rounded-lg px-1 py-2">
        <span
          aria-hidden
          className="flex h-10 w-10 flex-none items-center justify-center rounded-full bg-gradient-to-br from-indigo-500 to-violet-500 text-sm font-bold text-white"
        >
          {initial}
        </span>
        <span className="min-w-0 lg:opacity-0 lg:transition-opacity lg:group-hover/sidebar:opacity-100">
          <span className="block truncate text-sm font-semibold text-slate-900" data-testid="sidebar-user-name">
            {name}
          </span>
          <span className="block text-xs text-slate-500">Free plan</span>
        </span>
      </div>
      <button
        type="button"
        onClick={onLogout}
        className="mt-1 flex h-10 w-full items-center gap-3 rounded-lg px-3 text-sm font-medium text-slate-600 hover:bg-rose-50 hover:text-rose-700"
      >
        <LogOut className="h-5 w-5 flex-none" aria-hidden />
        <span className="whitespace-nowrap lg:opacity-0 lg:transition-opacity lg:group-hover/sidebar:opacity-100">Logout</span>
      </button>
      <span className="sr-only">{getUser()?.email}</span>
    </div>
  )
}
