import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { saveSession } from '@/lib/session'
import * as toast from '@/lib/toast'
import { flowHandlers, makeFlow } from '@/testing/flows'
import { makeResult, makeRun, makeScenario } from '@/testing/lab'
import { calls, server, url } from '@/testing/msw'
import { mockReactFlow } from '@/testing/reactflow'
import { renderApp } from '@/testing/render'
import type { Flow, FlowGraph, Problem } from './types'

mockReactFlow()
beforeEach(() => saveSession('1|x', { id: 1, name: 'Grace', email: 'g@example.com', role: 'user' }))

const lastDraft = () => (calls.filter((c) => c.method === 'PUT').at(-1)?.body as { draft: FlowGraph }).draft
const nodeList = () => screen.getByRole('navigation', { name: 'Nodes' })

/** A check like the server's, enough for these tests: an ask needs an answer and a fallback. */
const askProblems = (graph: FlowGraph): Problem[] =>
  graph.nodes
    .filter((n) => n.kind === 'ask' && !(graph.edges ?? []).some((e) => e.source === n.id && e.kind === 'fallback'))
    .map((n) => ({ message: `Ask '${n.name}' needs exactly one fallback edge`, node_id: n.id }))

async function openEditor(flow: Flow, options: Parameters<typeof flowHandlers>[1] = {}) {
  const store = [flow]
  // The flow's lab suite, empty unless a test says otherwise (publishing asks for it).
  server.use(...flowHandlers(store, options), http.get(url('flows/:id/lab/scenarios'), () => HttpResponse.json({ success: true, data: [] })))
  const user = userEvent.setup()
  const view = renderApp(`/dashboard/flows/${flow.id}`)
  await screen.findByRole('heading', { name: flow.name })
  return { user, store, ...view }
}

describe('Flow editor', () => {
  it('adds a node of each kind from the toolbar, undoes and redoes with the buttons and the keys, and saves', async () => {
    const { user } = await openEditor(makeFlow({ id: 'f1', name: 'Reminder' }))
    expect(screen.getByTestId('node-start')).toHaveAttribute('data-kind', 'say')
    expect(screen.getByRole('button', { name: 'Undo' })).toBeDisabled()
    for (const kind of ['Say', 'Ask', 'Decide', 'Action', 'Global']) await user.click(screen.getByRole('button', { name: `Add ${kind} node` }))
    expect(within(nodeList()).getAllByRole('button')).toHaveLength(6)
    for (const kind of ['say', 'ask', 'decide', 'action', 'global']) expect(screen.getByTestId(`node-${kind}_1`)).toHaveAttribute('data-kind', kind)
    expect(screen.getByTestId('flow-status')).toHaveTextContent('Unsaved changes')
    // The node added last is selected: the side panel edits it.
    expect(within(screen.getByRole('form', { name: 'Node' })).getByText('Global node')).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Undo' }))
    expect(screen.queryByTestId('node-global_1')).not.toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Redo' }))
    expect(screen.getByTestId('node-global_1')).toBeInTheDocument()
    // Outside a text field: Ctrl+Z undoes, Ctrl+Shift+Z redoes.
    fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true })
    fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true })
    expect(within(nodeList()).getAllByRole('button')).toHaveLength(4)
    fireEvent.keyDown(document.body, { key: 'Z', ctrlKey: true, shiftKey: true })
    expect(within(nodeList()).getAllByRole('button')).toHaveLength(5)
    // Undone all the way, nothing is left to save.
    for (let i = 0; i < 4; i += 1) fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true })
    expect(screen.getByTestId('flow-status')).toHaveTextContent('All changes saved')
    expect(screen.getByRole('button', { name: 'Save draft' })).toBeDisabled()
    fireEvent.keyDown(document.body, { key: 'y', ctrlKey: true })
    fireEvent.keyDown(document.body, { key: 'y', ctrlKey: true })

    await user.click(screen.getByRole('button', { name: 'Save draft' }))
    await waitFor(() => expect(screen.getByTestId('flow-status')).toHaveTextContent('All changes saved'))
    expect(lastDraft().nodes.map((n) => n.kind)).toEqual(['say', 'say', 'ask'])
  })

  it("edits a node in the side panel, with the server's limits checked first", async () => {
    const draft: FlowGraph = { start_node_id: 'start', nodes: [{ id: 'start', kind: 'say', name: 'Hi', text: 'Hello!' }, { id: 'ask_1', kind: 'ask', name: 'Ask', text: 'Does it work?', max_tries: 2 }], edges: [] }
    const { user } = await openEditor(makeFlow({ id: 'f5', name: 'Editing', draft }))
    await user.click(within(nodeList()).getByRole('button', { name: /^Ask/ }))
    const ask = screen.getByRole('form', { name: 'Node' })
    const fill = async (label: string, text: string) => {
      await user.clear(within(ask).getByLabelText(label))
      if (text) {
        await user.click(within(ask).getByLabelText(label))
        await user.paste(text)
      }
    }
    await fill('Name', '')
    await fill('Question', '')
    await fill('Tries', '9')
    await user.click(within(ask).getByRole('button', { name: 'Add capture' }))
    await fill('Capture 1 variable', '2day')
    await user.click(within(ask).getByRole('button', { name: 'Apply' }))
    expect(await within(ask).findByText('The name is required')).toBeInTheDocument()
    expect(within(ask).getByText('An ask node needs its question')).toBeInTheDocument()
    expect(within(ask).getByText('At most 5 tries')).toBeInTheDocument()
    expect(within(ask).getByText(/A variable name starts with a letter/)).toBeInTheDocument()
    expect(screen.getByTestId('flow-status')).toHaveTextContent('All changes saved')

    await fill('Name', 'New time')
    await fill('Question', 'When suits you, {{name}}?')
    await fill('Tries', '3')
    await fill('Capture 1 variable', 'new_time')
    await user.selectOptions(within(ask).getByLabelText('Capture 1 type'), 'time')
    await user.click(within(ask).getByRole('button', { name: 'Apply' }))
    expect(await within(nodeList()).findByRole('button', { name: /New time/ })).toBeInTheDocument()
    expect(screen.getByTestId('node-ask_1')).toHaveTextContent('When suits you, {{name}}?')

    // An action node's form follows its type: keys to press are checked as the server does.
    await user.click(within(nodeList()).getByRole('button', { name: /^Hi/ }))
    await user.click(screen.getByRole('button', { name: 'Add Action node' }))
    const action = screen.getByRole('form', { name: 'Node' })
    await user.selectOptions(within(action).getByLabelText('Action'), 'press_digits')
    await user.type(within(action).getByLabelText('Keys'), '12x')
    await user.click(within(action).getByRole('button', { name: 'Apply' }))
    expect(await within(action).findByText(/Keys 0-9, \* and #/)).toBeInTheDocument()
    await user.clear(within(action).getByLabelText('Keys'))
    await user.type(within(action).getByLabelText('Keys'), '1w2')
    await user.click(within(action).getByRole('button', { name: 'Apply' }))
    await user.click(screen.getByRole('button', { name: 'Save draft' }))
    await waitFor(() => expect(lastDraft().nodes).toHaveLength(3))
    expect(lastDraft().nodes[1]).toMatchObject({ kind: 'ask', name: 'New time', text: 'When suits you, {{name}}?', max_tries: 3, capture: [{ variable: 'new_time', type: 'time' }] })
    expect(lastDraft().nodes[2]).toMatchObject({ id: 'action_1', kind: 'action', action: { type: 'press_digits', digits: '1w2' } })
  })

  it('connects nodes with the Add edge form, checks an answer has phrases or an intent, edits and deletes edges', async () => {
    const draft: FlowGraph = {
      start_node_id: 'start',
      nodes: [
        { id: 'start', kind: 'ask', name: 'Confirm', text: 'Does 3 pm work?', position: { x: 0, y: 0 } },
        { id: 'bye', kind: 'action', name: 'Goodbye', action: { type: 'end_call', text: 'Bye.' }, position: { x: 0, y: 200 } },
      ],
      edges: [],
    }
    const { user } = await openEditor(makeFlow({ id: 'f2', name: 'Confirm', draft }))
    const add = screen.getByRole('form', { name: 'Add edge' })
    expect(within(add).getByLabelText('From')).toHaveValue('start')
    expect(within(add).getByLabelText('Kind')).toHaveValue('answer')
    await user.click(within(add).getByRole('button', { name: 'Add edge' }))
    expect(await within(add).findByText('Choose the node it goes to')).toBeInTheDocument()
    expect(within(add).getByText('An answer needs example phrases or an intent')).toBeInTheDocument()
    await user.selectOptions(within(add).getByLabelText('To'), 'bye')
    await user.type(within(add).getByLabelText('Label'), 'Yes')
    await user.type(within(add).getByLabelText('Example phrases (one a line)'), 'that works{Enter}sounds good')
    await user.click(within(add).getByRole('button', { name: 'Add edge' }))
    expect(await screen.findByText('Edge added from start to bye')).toBeInTheDocument()
    // The next edge out of the ask is its fallback.
    expect(within(screen.getByRole('form', { name: 'Add edge' })).getByLabelText('Kind')).toHaveValue('fallback')

    await user.click(screen.getByRole('button', { name: 'Save draft' }))
    await waitFor(() => expect(lastDraft().edges).toEqual([{ id: 'edge_1', source: 'start', target: 'bye', kind: 'answer', label: 'Yes', phrases: ['that works', 'sounds good'], intent: null, condition: null }]))

    // The edge is on the canvas; selecting it opens its form.
    fireEvent.click(screen.getByText('Yes'))
    const edgeForm = await screen.findByRole('form', { name: 'Edge' })
    await user.selectOptions(within(edgeForm).getByLabelText('Or a built-in intent'), 'yes')
    await user.clear(within(edgeForm).getByLabelText('Example phrases (one a line)'))
    await user.click(within(edgeForm).getByRole('button', { name: 'Apply' }))
    await user.click(within(screen.getByRole('form', { name: 'Edge' })).getByRole('button', { name: 'Delete edge' }))
    expect(screen.queryByText('Yes')).not.toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Undo' }))
    await user.click(screen.getByRole('button', { name: 'Save draft' }))
    await waitFor(() => expect(lastDraft().edges?.[0]).toMatchObject({ id: 'edge_1', phrases: [], intent: 'yes' }))
  })

  it("lists the server's problems, marks and focuses their nodes, and publishes once they are fixed", async () => {
    const offer = vi.spyOn(toast, 'offer')
    const draft: FlowGraph = {
      start_node_id: 'start',
      nodes: [
        { id: 'start', kind: 'ask', name: 'Confirm', text: 'Does 3 pm work?', position: { x: 0, y: 0 } },
        { id: 'bye', kind: 'action', name: 'Goodbye', action: { type: 'end_call', text: 'Bye.' }, position: { x: 0, y: 200 } },
      ],
      edges: [{ id: 'yes', source: 'start', target: 'bye', kind: 'answer', label: 'Yes', intent: 'yes' }],
    }
    const { user } = await openEditor(makeFlow({ id: 'f3', name: 'Confirm', draft, problems: askProblems(draft) }), { problemsOf: askProblems })
    const problems = screen.getByTestId('problems')
    expect(screen.getByRole('heading', { name: 'Problems (1)' })).toBeInTheDocument()
    expect(within(screen.getByTestId('node-start')).getByTitle("Ask 'Confirm' needs exactly one fallback edge")).toHaveTextContent('1')
    expect(screen.getByRole('button', { name: 'Publish' })).toBeDisabled()
    expect(screen.getByText('Fix 1 problem before publishing')).toBeInTheDocument()

    await user.click(within(problems).getByRole('button', { name: "Ask 'Confirm' needs exactly one fallback edge" }))
    expect(within(screen.getByRole('form', { name: 'Node' })).getByLabelText('Name')).toHaveValue('Confirm')
    expect(within(nodeList()).getByRole('button', { name: /Confirm/ })).toHaveAttribute('aria-pressed', 'true')

    const add = screen.getByRole('form', { name: 'Add edge' })
    expect(within(add).getByLabelText('Kind')).toHaveValue('fallback')
    await user.selectOptions(within(add).getByLabelText('To'), 'bye')
    await user.click(within(add).getByRole('button', { name: 'Add edge' }))
    expect(screen.getByText('As of the last save: save the draft to check your changes.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Publish' })).toBeDisabled()
    await user.click(screen.getByRole('button', { name: 'Save draft' }))
    expect(await screen.findByRole('heading', { name: 'No problems' })).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Publish' }))
    await waitFor(() => expect(screen.getByTestId('flow-status')).toHaveTextContent('Published version 1'))
    expect(screen.getAllByText('Published version 1')).toHaveLength(2) // the toast and the status
    // Its suite is empty: nothing to offer.
    await waitFor(() => expect(calls.some((c) => c.path === 'flows/f3/lab/scenarios')).toBe(true))
    expect(offer).not.toHaveBeenCalled()
    offer.mockRestore()
  })

  it("publishing offers to run the flow's suite on the version published, and the offer opens the run", async () => {
    const offer = vi.spyOn(toast, 'offer')
    const run = makeRun({ id: 'run4', status: 'running', results: [makeResult({ id: 'r1', status: 'queued' })] })
    const { user, router } = await openEditor(makeFlow({ id: 'f4', name: 'Booking' }))
    server.use(
      http.get(url('flows/f4/lab/scenarios'), () => HttpResponse.json({ success: true, data: [makeScenario({ id: 's1', name: 'Books a time' })] })),
      http.post(url('flows/f4/lab/runs'), () => HttpResponse.json({ success: true, message: 'The run has started', data: run }, { status: 201 })),
    )
    await user.click(screen.getByRole('button', { name: 'Publish' }))
    await waitFor(() => expect(offer).toHaveBeenCalled())
    const [message, label, start] = offer.mock.calls[0] as [string, string, () => void]
    expect([message, label]).toEqual(['Its suite has 1 scenario: run it against published version 1?', 'Run its 1 test'])
    start()
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/dashboard/flows/f4/tests?run=run4'))
    expect(calls.find((c) => c.method === 'POST' && c.path === 'flows/f4/lab/runs')?.body).toEqual({})
    offer.mockRestore()
  })

  it('exports the flow as its JSON file', async () => {
    const { user } = await openEditor(makeFlow({ id: 'f6', name: 'My survey' }))
    const blobs: Blob[] = []
    const created = vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob)
      return 'blob:flow'
    })
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe('my-survey.json')
    })
    await user.click(screen.getByRole('button', { name: 'Export' }))
    await waitFor(() => expect(clicked).toHaveBeenCalledTimes(1))
    expect(JSON.parse(await blobs[0]!.text())).toEqual({ format: 'callwright-flow/1', name: 'My survey', description: '', graph: makeFlow({ id: 'x', name: 'x' }).draft })
    created.mockRestore()
    clicked.mockRestore()
  })

  it('asks before leaving with unsaved changes', async () => {
    const { user, router } = await openEditor(makeFlow({ id: 'f4', name: 'Leaving' }))
    await user.click(screen.getByRole('button', { name: 'Add Say node' }))
    await user.click(screen.getByRole('link', { name: 'All flows' }))
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' })
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }))
    expect(router.state.location.pathname).toBe('/dashboard/flows/f4')
    await user.click(screen.getByRole('link', { name: 'All flows' }))
    await user.click(within(await screen.findByRole('dialog', { name: 'Leave without saving?' })).getByRole('button', { name: 'Leave' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/flows'))
  })
})
