import type { UseFormRegisterReturn } from 'react-hook-form'

/** A labelled range input bound to a form field, with its value shown beside the label. */
/** `describedBy` names the ids of the lines that explain it (what it holds, why it starts where it does). */
export function Slider({ id, label, min, max, step, field, disabled, display, describedBy }: { id: string; label: string; min: number; max: number; step: number; field: UseFormRegisterReturn; disabled?: boolean; display: string; describedBy?: string }) {
  return (
    <div>
      <div className="flex items-center justify-between text-sm">
        <label htmlFor={id} className="font-medium text-slate-700">
          {label}
        </label>
        <span className="tabular-nums text-slate-600">{display}</span>
      </div>
      <input id={id} type="range" min={min} max={max} step={step} {...field} disabled={disabled} aria-describedby={describedBy} className="mt-2 w-full accent-indigo-600" />
    </div>
  )
}
