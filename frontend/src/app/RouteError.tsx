import { isRouteErrorResponse, Link, useRouteError } from 'react-router'

/** Shown when a screen fails to load (for example a lazy chunk after a deploy). */
export function RouteError() {
  const error = useRouteError()
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : ''
  return (
    <div role="alert" className="flex min-h-dvh flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-2xl font-bold text-slate-900">Something went wrong</h1>
      <p className="max-w-md text-sm text-slate-600">This page could not be shown. {detail}</p>
      <div className="flex gap-3">
        <button type="button" className="rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white" onClick={() => window.location.reload()}>
          Reload
        </button>
        <Link to="/" className="rounded-lg px-4 py-2 text-sm font-semibold text-indigo-600 ring-1 ring-indigo-200">
          Go home
        </Link>
      </div>
    </div>
  )
}
