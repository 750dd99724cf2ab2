import { render } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
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
