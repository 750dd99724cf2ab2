/** Asks before leaving the editor with unsaved changes: a route change asks in a dialog, closing
 * or reloading the tab in the browser's own prompt. */
import { useEffect } from 'react'
import { useBlocker } from 'react-router'
import { Modal } from '@/components/Modal'
import { Button } from '@/components/ui/button'

export function LeaveGuard({ dirty }: { dirty: boolean }) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname)
  useEffect(() => {
    if (!dirty) return
    const onUnload = (event: BeforeUnloadEvent) => event.preventDefault()
    window.addEventListener('beforeunload', onUnload)
    return () => window.removeEventListener('beforeunload', onUnload)
  }, [dirty])
  if (blocker.state !== 'blocked') return null
  return (
    <Modal
      open
      onOpenChange={(open) => !open && blocker.reset()}
      title="Leave without saving?"
      footer={
        <>
          <Button variant="secondary" onClick={() => blocker.reset()}>
            Stay
          </Button>
          <Button variant="danger" onClick={() => blocker.proceed()}>
            Leave
          </Button>
        </>
      }
    >
      <p className="text-sm text-slate-700">This flow has changes that are not saved. Leave and lose them?</p>
    </Modal>
  )
}
