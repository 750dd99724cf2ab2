import { useCallback } from 'react'
import { useLocation, useNavigate } from 'react-router'

/** Scroll to a landing section; from another page, go home first and then scroll. */
export function useSectionLink() {
  const navigate = useNavigate()
  const { pathname } = useLocation()
  return useCallback(
    (id: string) => {
      const scroll = () => document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', block: 'start' })
      if (pathname === '/') scroll()
      else {
        navigate('/')
        // After the landing page has rendered.
        window.setTimeout(scroll, 80)
      }
    },
    [navigate, pathname],
  )
}
