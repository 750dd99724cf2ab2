/** "Skip to content": the first thing the keyboard reaches on every layout (public, sign-in,
 * dashboard, admin). Hidden until focused; it moves the focus to the page's <main>, so the next
 * Tab is the page's first control, not the navigation's. */
import type { MouseEvent } from 'react'

export const MAIN_ID = 'main'

export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(MAIN_ID)
    if (!main) return
    // The router owns the URL: move the focus without a hash navigation.
    event.preventDefault()
    main.focus()
  }
  return (
    <a
      href={`#${MAIN_ID}`}
      onClick={skip}
      className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-[100] focus:rounded-lg focus:bg-white focus:px-4 focus:py-2 focus:text-sm focus:font-semibold focus:text-indigo-700 focus:shadow-lg"
    >
      Skip to content
    </a>
  )
}
