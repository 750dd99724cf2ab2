import type { InputHTMLAttributes } from 'react'
import { cn } from '@/lib/cn'

export function Input({ className, ...props }: InputHTMLAttributes<HTMLInputElement>) {
  return (
    <input
      className={cn(
        'block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-xs placeholder:text-slate-400',
        'focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30',
        'disabled:cursor-not-allowed disabled:bg-slate-100 aria-[invalid=true]:border-rose-400 aria-[invalid=true]:focus:ring-rose-500/30',
        className,
      )}
      {...props}
    />
  )
}
