/** A node change marked in a call's transcript (docs/flows.md): "-> Confirm (answer 'Yes' by the
 * phrase 'that works')", with what was captured there. */
import { GitBranch } from 'lucide-react'
import { stepText, type FlowStep } from './api'

export function FlowStepLine({ step }: { step: FlowStep }) {
  const captured = Object.entries(step.captured)
  return (
    <div className="flex justify-center" data-testid="flow-step" data-node={step.node_id}>
      <p className="flex max-w-[90%] items-start gap-1.5 rounded-lg bg-violet-50 px-3 py-1 text-xs text-violet-900 ring-1 ring-inset ring-violet-200">
        <GitBranch className="mt-px h-3.5 w-3.5 shrink-0" aria-hidden />
        <span className="min-w-0">
          <span className="font-medium">{stepText(step)}</span>
          {captured.length > 0 && <span className="ml-1.5 font-mono">{captured.map(([name, value]) => `${name} = ${value}`).join(', ')}</span>}
        </span>
      </p>
    </div>
  )
}
