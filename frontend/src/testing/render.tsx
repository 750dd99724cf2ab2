import { render } from '@testing-library/react'
import type { ReactNode } from 'react'
import { createMemoryRouter, MemoryRouter, RouterProvider } from 'react-router'
import { Providers } from '@/app/providers'
import { makeQueryClient } from '@/app/queryClient'
import { routes } from '@/app/routes'

/** The real route table (guards included) in memory, starting at `path`. */
export function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] })
  const client = makeQueryClient()
  client.setDefaultOptions({ queries: { retry: false } })
  const utils = render(
    <Providers client={client}>
      <RouterProvider router={router} />
    </Providers>,
  )
  return { ...utils, router }
}

/** One component as the app holds it: inside the app's providers and a router, without the
 * route table. */
export function renderInApp(ui: ReactNode) {
  const client = makeQueryClient()
  client.setDefaultOptions({ queries: { retry: false } })
  return render(
    <Providers client={client}>
      <MemoryRouter>{ui}</MemoryRouter>
    </Providers>,
  )
}
