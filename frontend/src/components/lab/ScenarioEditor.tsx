/** A scenario opened for editing: a dialog with two views of the same draft, the form and the
 * JSON (`lab.contract.Scenario`); an edit in either shows in the other. Save adds it (POST) or
 * changes it (PUT); the server's refusal shows at its fields (or in the JSON view). */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Tabs } from 'radix-ui'
import { useEffect, useRef, useState } from 'react'
import { TextArea } from '@/components/kit'
import { Modal } from '@/components/Modal'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/card'
import { FormError } from '@/components/ui/field'
import { ApiError, messageOf } from '@/lib/api'
import { notify } from '@/lib/toast'
import { labApi, labKeys, type LabOwner, type ScenarioOut } from './api'
import { draftOf, emptyDraft, jsonOf, readJson, toScenario, type Draft, type Problems, type ScenarioJson } from './draft'
import { ScenarioForm } from './ScenarioForm'

/** The fields the form shows a problem at (any other goes to the list above the form). */
const AT_A_FIELD = /^(name|suite|callee\.(kind|label|hello|interruption|pauses|thinking|ring_seconds|noise|persona|menu|lines(\.\d+)?)|expect\.(outcome|transferred|path|keys|max_call_seconds|max_reply_seconds|callee_says(\.\d+)?|says(\.\d+\.(phrase|within_seconds))?|never_says(\.\d+)?|tools(\.\d+\.(name|arguments))?|values(\.\d+)?)|variables(\.\d+)?)$/

const TAB = 'rounded-md px-3 py-1.5 text-sm font-medium text-slate-600 data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500'

/** The server's 422 as problems by field; the parts of a phone menu go to the menu's field. */
function serverProblems(errors: Record<string, string[]>): Problems {
  const out: Problems = {}
  for (const [key, messages] of Object.entries(errors)) {
    const menu = key.startsWith('callee.menu.')
    const at = menu ? 'callee.menu' : key
    const message = menu ? `${key.slice('callee.menu.'.length)}: ${messages[0] ?? ''}` : (messages[0] ?? '')
    out[at] = out[at] ? `${out[at]} ${message}` : message
  }
  return out
}

export function ProblemList({ problems, testId }: { problems: Problems; testId: string }) {
  const entries = Object.entries(problems)
  if (!entries.length) return null
  return (
    <ul role="alert" data-testid={testId} className="space-y-1 rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-700 ring-1 ring-rose-200">
      {entries.map(([key, message]) => (
        <li key={key}>{key === 'json' ? message : `${key}: ${message}`}</li>
      ))}
    </ul>
  )
}

/** The editor's state: the draft, the JSON text while the JSON view is open, and the problems. */
function useEditorState(scenario: ScenarioOut | null, suite: string) {
  const [draft, setDraft] = useState<Draft>(() => (scenario ? draftOf(scenario) : emptyDraft(suite)))
  const [view, setView] = useState<'form' | 'json'>('form')
  const [json, setJson] = useState('')
  const [jsonProblems, setJsonProblems] = useState<Problems>({})
  const [jsonBroken, setJsonBroken] = useState(false)
  const [tried, setTried] = useState(false)
  const [server, setServer] = useState<Problems>({})
  const own = toScenario(draft)
  const editJson = (source: string) => {
    setJson(source)
    const read = readJson(source)
    setJsonBroken(read.draft === null)
    setJsonProblems(read.problems)
    if (read.draft) setDraft(read.draft)
  }
  const switchTo = (next: string) => {
    if (next === 'json') {
      setJson(jsonOf(draft))
      setJsonProblems({})
      setJsonBroken(false)
      setView('json')
    } else if (!jsonBroken) setView('form')
  }
  const change = (patch: Partial<Draft>) => setDraft((old) => ({ ...old, ...patch }))
  return { draft, view, json, jsonProblems, jsonBroken, tried, setTried, server, setServer, own, editJson, switchTo, change }
}

export function ScenarioEditor({ owner, scenario, suite, onClose }: { owner: LabOwner; scenario: ScenarioOut | null; suite: string; onClose: () => void }) {
  const client = useQueryClient()
  const state = useEditorState(scenario, suite)
  const { draft, view, json, jsonProblems, jsonBroken, tried, setTried, server, setServer, own } = state
  const body = useRef<HTMLDivElement>(null)
  const [attempt, setAttempt] = useState(0)
  // After a refused save, the first problem is brought into view (and its field focused).
  useEffect(() => {
    if (!attempt) return
    const first = body.current?.querySelector<HTMLElement>('[aria-invalid="true"], [role="alert"]')
    first?.scrollIntoView?.({ block: 'center' })
    if (first?.matches('input, select, textarea')) first.focus()
  }, [attempt, server])
  const save = useMutation({
    mutationFn: (body: ScenarioJson) => (scenario ? labApi.update(scenario.id, body) : labApi.create(owner, body)),
    onSuccess: (result) => {
      void client.invalidateQueries({ queryKey: labKeys.scenarios(owner) })
      notify.success(result.message)
      onClose()
    },
    onError: (error) => {
      setServer(error instanceof ApiError ? serverProblems(error.errors) : {})
      notify.error(messageOf(error, 'Failed to save the scenario'))
    },
  })
  const submit = () => {
    setTried(true)
    setServer({})
    setAttempt((n) => n + 1)
    if (jsonBroken || Object.keys(own.problems).length) return
    save.mutate(own.scenario)
  }
  const shown: Problems = { ...(tried ? own.problems : {}), ...server }
  const elsewhere = Object.fromEntries(Object.entries(server).filter(([key]) => !AT_A_FIELD.test(key)))
  const footer = (
    <>
      <Button variant="secondary" onClick={onClose}>
        Cancel
      </Button>
      <Button onClick={submit} disabled={save.isPending || jsonBroken}>
        {save.isPending && <Spinner className="h-4 w-4" />} Save scenario
      </Button>
    </>
  )
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={scenario ? `Scenario: ${scenario.name}` : 'New scenario'} footer={footer} wide>
      <Tabs.Root ref={body} value={view} onValueChange={state.switchTo} className="space-y-4">
        <Tabs.List aria-label="Scenario view" className="inline-flex gap-1 rounded-lg bg-slate-100 p-1">
          <Tabs.Trigger value="form" className={TAB} disabled={jsonBroken && view === 'json'}>
            Form
          </Tabs.Trigger>
          <Tabs.Trigger value="json" className={TAB}>
            JSON
          </Tabs.Trigger>
        </Tabs.List>
        {tried && Object.keys(own.problems).length > 0 && view === 'form' && <FormError message="Some fields need a fix: see the messages under them." />}
        <Tabs.Content value="form" className="space-y-4 focus-visible:outline-none">
          <ProblemList problems={elsewhere} testId="scenario-server-problems" />
          <ScenarioForm draft={draft} problems={shown} onChange={state.change} />
        </Tabs.Content>
        <Tabs.Content value="json" className="space-y-2 focus-visible:outline-none">
          <label htmlFor="scenario-json" className="block text-sm font-medium text-slate-700">
            The scenario as JSON
          </label>
          <TextArea id="scenario-json" rows={22} spellCheck={false} className="font-mono text-xs" value={json} onChange={(e) => state.editJson(e.target.value)} aria-invalid={Object.keys(jsonProblems).length > 0 || undefined} aria-describedby="scenario-json-problems" />
          <div id="scenario-json-problems">
            <ProblemList problems={{ ...jsonProblems, ...server }} testId="scenario-json-problems" />
          </div>
          {jsonBroken && <p className="text-xs text-slate-500">Fix the JSON to go back to the form or save.</p>}
        </Tabs.Content>
      </Tabs.Root>
    </Modal>
  )
}
