import { useQuery } from '@tanstack/react-query'
import { Outlet } from 'react-router'
import { Sidebar } from '@/app/Sidebar'
import { useStoreBrowserTimeZone } from '@/components/account/useTimeZone'
import { MAIN_ID, SkipLink } from '@/components/SkipLink'
import { unreadQuery } from '@/features/admin/api'
import { modeQuery } from '@/features/system/api'
import { ModeNotices } from '@/features/system/ModeNotices'
import { getUser } from '@/lib/session'
import { ADMIN_NAV, USER_NAV } from './nav'

/** The signed-in layout: sidebar plus the page. `area` picks the menu. A user without a time zone
 * gets the browser's here, once. */
export function AppLayout({ area }: { area: 'user' | 'admin' }) {
  useStoreBrowserTimeZone()
  const isAdmin = getUser()?.role === 'admin'
  const unread = useQuery({ ...unreadQuery(), enabled: area === 'admin' && isAdmin })
  // The notices above the page come from the mode: the page waits for it the first time this
  // browser signs in (one small request; later loads have it remembered), so they never push
  // the page down once drawn. A mode that cannot be read holds nothing up.
  const mode = useQuery(modeQuery())
  const ready = mode.data !== undefined || mode.failureCount > 0
  const switchTo = !isAdmin ? undefined : area === 'admin' ? { to: '/dashboard', label: 'User area' } : { to: '/admin', label: 'Admin area' }
  return (
    <div className="min-h-dvh bg-slate-50">
      <SkipLink />
      <Sidebar items={area === 'admin' ? ADMIN_NAV.map((item) => (item.to === '/admin/inbox' ? { ...item, dot: (unread.data ?? 0) > 0 } : item)) : USER_NAV} switchTo={switchTo} />
      <main id={MAIN_ID} tabIndex={-1} className="px-4 py-6 sm:px-6 lg:ml-[72px] lg:px-10 lg:py-10">
        <div className="mx-auto max-w-6xl">
          {ready && (
            <>
              <ModeNotices />
              <Outlet />
            </>
          )}
        </div>
      </main>
    </div>
  )
}

export function UserLayout() {
  return <AppLayout area="user" />
}

export function AdminLayout() {
  return <AppLayout area="admin" />
}
