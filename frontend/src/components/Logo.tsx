import { useId } from 'react'
import { cn } from '@/lib/cn'

export function LogoMark({ className }: { className?: string }) {
  // Unique per instance: a gradient referenced across SVGs breaks when the first one is hidden.
  const gradient = `cw-logo-${useId().replace(/:/g, '')}`
  return (
    <svg viewBox="0 0 64 64" className={cn('h-8 w-8', className)} aria-hidden>
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#6366f1" />
          <stop offset="1" stopColor="#4338ca" />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="14" fill={`url(#${gradient})`} />
      <path
        d="M22 18c2 0 3 1 4 3l3 6c1 2 0 3-1 4l-2 2c2 4 5 7 9 9l2-2c1-1 2-2 4-1l6 3c2 1 3 2 3 4 0 5-4 8-8 8-13 0-25-12-25-25 0-4 3-8 5-8z"
        fill="#fff"
      />
      <path d="M40 14a12 12 0 0 1 10 10M39 21a6 6 0 0 1 4 4" stroke="#c7d2fe" strokeWidth="3" fill="none" strokeLinecap="round" />
    </svg>
  )
}

export function Logo({ className, light }: { className?: string; light?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-bold tracking-tight', light ? 'text-white' : 'text-slate-900', className)}>
      <LogoMark />
      <span className="text-lg">Callwright</span>
    </span>
  )
}
