import { ArrowUp, Menu, X } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link, NavLink, Outlet, useLocation } from 'react-router'
import { Logo } from '@/components/Logo'
import { SkipLink } from '@/components/SkipLink'
import { Button } from '@/components/ui/button'
import { cn } from '@/lib/cn'
import { useSectionLink } from './useSectionLink'

export const CONTACT_EMAIL = 'hello@callwright.app'
export const SALES_PHONE = '+1 (888) 555-0142'

function useScrolledPast(px: number): boolean {
  const [past, setPast] = useState(false)
  useEffect(() => {
    const check = () => setPast(window.scrollY >= px)
    check()
    window.addEventListener('scroll', check, { passive: true })
    return () => window.removeEventListener('scroll', check)
  }, [px])
  return past
}

function Navbar() {
  const scrolled = useScrolledPast(20)
  const [open, setOpen] = useState(false)
  const goTo = useSectionLink()
  const { pathname } = useLocation()

  // Navigating closes the menu (state adjusted during render, React's pattern for this).
  const [menuPath, setMenuPath] = useState(pathname)
  if (menuPath !== pathname) {
    setMenuPath(pathname)
    setOpen(false)
  }
  useEffect(() => {
    if (!open) return
    const before = document.body.style.overflow
    document.body.style.overflow = 'hidden'
    return () => {
      document.body.style.overflow = before
    }
  }, [open])

  const section = (id: string) => () => {
    setOpen(false)
    goTo(id)
  }
  const linkClass = ({ isActive }: { isActive: boolean }) =>
    cn('rounded-md px-3 py-2 text-sm font-medium transition-colors hover:text-indigo-600', isActive ? 'text-indigo-600' : 'text-slate-700')

  return (
    <header
      data-testid="navbar"
      data-scrolled={scrolled}
      className={cn(
        'fixed inset-x-0 top-0 z-40 h-20 transition-colors duration-200',
        scrolled ? 'border-b border-slate-200/70 bg-white/80 shadow-sm backdrop-blur-md' : 'bg-transparent',
      )}
    >
      <div className="mx-auto flex h-full max-w-7xl items-center justify-between px-4 sm:px-6 lg:px-8">
        <Link to="/" aria-label="Callwright home">
          <Logo />
        </Link>
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          <button type="button" onClick={section('how-it-works')} className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:text-indigo-600">
            How it Works
          </button>
          <NavLink to="/blogs" className={linkClass}>
            Blogs
          </NavLink>
          <NavLink to="/enterprise" className={linkClass}>
            Enterprise
          </NavLink>
        </nav>
        <div className="hidden items-center gap-2 md:flex">
          <Button asChild variant="ghost">
            <Link to="/login">Log in</Link>
          </Button>
          <Button asChild>
            <Link to="/register">Get Started</Link>
          </Button>
        </div>
        <button
          type="button"
          className="rounded-md p-2 text-slate-700 md:hidden"
          aria-label={open ? 'Close menu' : 'Open menu'}
          aria-expanded={open}
          aria-controls="mobile-menu"
          onClick={() => setOpen((v) => !v)}
        >
          {open ? <X className="h-6 w-6" aria-hidden /> : <Menu className="h-6 w-6" aria-hidden />}
        </button>
      </div>
      {open && (
        <div id="mobile-menu" className="fixed inset-x-0 bottom-0 top-20 overflow-y-auto bg-white px-4 pb-8 pt-4 md:hidden">
          <nav aria-label="Mobile" className="flex flex-col gap-1 text-lg">
            <button type="button" onClick={section('how-it-works')} className="rounded-lg px-3 py-3 text-left font-medium text-slate-800 hover:bg-slate-50">
              How it Works
            </button>
            <Link to="/blogs" className="rounded-lg px-3 py-3 font-medium text-slate-800 hover:bg-slate-50">
              Blogs
            </Link>
            <Link to="/enterprise" className="rounded-lg px-3 py-3 font-medium text-slate-800 hover:bg-slate-50">
              Enterprise
            </Link>
            <Link to="/login" className="rounded-lg px-3 py-3 font-medium text-slate-800 hover:bg-slate-50">
              Log in
            </Link>
            <Button asChild className="mt-4" size="lg">
              <Link to="/register">Get Started</Link>
            </Button>
          </nav>
        </div>
      )}
    </header>
  )
}

function Social({ label, d }: { label: string; d: string }) {
  return (
    <a href="#" aria-label={label} onClick={(e) => e.preventDefault()} className="rounded-full bg-slate-800 p-2 text-slate-300 hover:bg-indigo-600 hover:text-white">
      <svg viewBox="0 0 24 24" className="h-4 w-4" fill="currentColor" aria-hidden>
        <path d={d} />
      </svg>
    </a>
  )
}

function Footer() {
  return (
    <footer className="bg-slate-900 text-slate-400">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-14 sm:px-6 md:grid-cols-3 lg:px-8">
        <div>
          <Logo light />
          <p className="mt-4 max-w-xs text-sm">AI voice agents that place your outbound calls, hold the conversation and report back.</p>
          <div className="mt-5 flex gap-2">
            <Social label="X" d="M17.8 3h3.1l-6.8 7.8L22 21h-6.2l-4.9-6.4L5.3 21H2.2l7.3-8.3L2 3h6.4l4.4 5.8L17.8 3zm-1.1 16.2h1.7L7.4 4.7H5.6l11.1 14.5z" />
            <Social label="LinkedIn" d="M4.98 3.5a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5zM3 9.5h4V21H3V9.5zm7 0h3.8v1.6h.1c.5-1 1.8-2 3.8-2 4 0 4.8 2.6 4.8 6V21h-4v-5.1c0-1.2 0-2.8-1.7-2.8s-2 1.3-2 2.7V21h-4V9.5z" />
            <Social label="YouTube" d="M23 7.2a3 3 0 0 0-2.1-2.1C19 4.6 12 4.6 12 4.6s-7 0-8.9.5A3 3 0 0 0 1 7.2 31 31 0 0 0 .5 12 31 31 0 0 0 1 16.8a3 3 0 0 0 2.1 2.1c1.9.5 8.9.5 8.9.5s7 0 8.9-.5a3 3 0 0 0 2.1-2.1 31 31 0 0 0 .5-4.8 31 31 0 0 0-.5-4.8zM9.8 15.1V8.9l5.8 3.1-5.8 3.1z" />
          </div>
        </div>
        <div className="text-sm">
          <p className="font-semibold text-white">Official launch</p>
          <p className="mt-3">
            Callwright officially launched on June 27th, 2025. Questions? Write to{' '}
            <a className="text-indigo-300 underline underline-offset-2 hover:text-white" href={`mailto:${CONTACT_EMAIL}`}>
              {CONTACT_EMAIL}
            </a>
            .
          </p>
        </div>
        <nav aria-label="Footer" className="flex flex-col gap-2 text-sm md:items-end">
          {['Privacy Policy', 'Terms of Service', 'Contact Us'].map((label) => (
            <a key={label} href="#" onClick={(e) => e.preventDefault()} className="hover:text-white">
              {label}
            </a>
          ))}
        </nav>
      </div>
      <div className="border-t border-slate-800 py-6 text-center text-xs">© {new Date().getFullYear()} Callwright. All rights reserved.</div>
    </footer>
  )
}

function ScrollToTop() {
  const visible = useScrolledPast(301)
  if (!visible) return null
  return (
    <button
      type="button"
      aria-label="Scroll to top"
      onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
      className="fixed bottom-6 right-6 z-40 rounded-full bg-indigo-600 p-3 text-white shadow-lg transition hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
    >
      <ArrowUp className="h-5 w-5" aria-hidden />
    </button>
  )
}

/** The public pages' frame (/, /blogs, /blogs/:id, /enterprise): navbar, page, footer. */
export function SiteLayout() {
  return (
    <div className="min-h-dvh bg-white">
      <SkipLink />
      <Navbar />
      <Outlet />
      <Footer />
      <ScrollToTop />
    </div>
  )
}
