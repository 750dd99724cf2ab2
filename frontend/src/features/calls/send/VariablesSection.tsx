/** The values of the {{variables}} the call's texts use, one field each, and what is missing. */
export function VariablesSection({ names, values, onChange, problem, disabled }: { names: string[]; values: Record<string, string>; onChange: (name: string, value: string) => void; problem: string | null; disabled: boolean }) {
  if (names.length === 0) return null
  return (
    <fieldset className="space-y-3 rounded-lg bg-slate-50 p-4" data-testid="call-variables">
      <legend className="sr-only">Variables</legend>
      <p className="text-sm font-medium text-slate-700">Variables for this call</p>
      {names.map((name) => (
        <div key={name}>
          <label htmlFor={`variable-${name}`} className="font-mono text-xs text-slate-600">{`{{${name}}}`}</label>
          <input
            id={`variable-${name}`}
            value={values[name] ?? ''}
            onChange={(e) => onChange(name, e.target.value)}
            disabled={disabled}
            maxLength={1000}
            className="mt-1 h-9 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200 disabled:bg-slate-50"
          />
        </div>
      ))}
      {problem && (
        <p role="alert" className="text-xs font-medium text-rose-600">
          {problem}
        </p>
      )}
    </fieldset>
  )
}
