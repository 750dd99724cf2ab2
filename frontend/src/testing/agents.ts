/** A fake agents API for feature tests: an in-memory store behind the real routes, with the
 * server's shapes (typed from the generated schema). */
import { http, HttpResponse } from 'msw'
import type { components } from '@/lib/api-schema'
import { placeholders } from '@/lib/variables'
import { url } from './msw'

type Agent = components['schemas']['AgentOut']
type AgentBody = components['schemas']['AgentIn']
type FlowGraph = components['schemas']['FlowGraph']

const STAMP = '2026-11-20T10:00:00Z'

export function makeAgent(fields: Partial<Agent> & Pick<Agent, 'id' | 'name' | 'prompt'>): Agent {
  const agent: Agent = {
    voice: 'joe',
    language: 'en-US',
    variables: [],
    created_at: STAMP,
    updated_at: STAMP,
    first_sentence: null,
    temperature: 0.7,
    interruption_threshold: 100,
    background_audio: 'null',
    max_duration: 30,
    wait_for_greeting: false,
    voicemail_action: 'leave_message',
    voicemail_message: null,
    disclosure: null,
    summary_prompt: null,
    dispositions: [],
    analysis_schema: [],
    webhook_url: null,
    transfer_number: null,
    transfer_list: null,
    transfer_mode: 'cold',
    precall_dtmf_sequence: null,
    ...fields,
  }
  return { ...agent, variables: placeholders(agent.prompt, agent.first_sentence, agent.voicemail_message) }
}

/** A stand-in for the server's derived flow (the offline brain's reading of the prompt): the
 * prompt as the greeting, one question, its answers. */
export function derivedGraph(agent: Agent): FlowGraph {
  const at = { x: 0, y: 0 }
  return {
    start_node_id: 'greeting',
    variables: [],
    nodes: [
      { id: 'greeting', kind: 'say', name: 'Greeting', text: `Hi. ${agent.prompt}`, position: at },
      { id: 'minute', kind: 'ask', name: 'Do you have a minute?', text: 'Do you have a minute?', position: at },
      { id: 'minute_yes', kind: 'say', name: 'Great', text: 'Great.', position: at },
      { id: 'offer', kind: 'ask', name: 'Go ahead?', text: 'Would you like to go ahead?', position: at },
      { id: 'end_agreed', kind: 'action', name: 'Agreed', action: { type: 'end_call', text: "Wonderful, you're all set." }, position: at },
      { id: 'end_declined', kind: 'action', name: 'Declined', action: { type: 'end_call', text: 'Alright, goodbye.' }, position: at },
      { id: 'voicemail', kind: 'action', name: 'Voicemail', action: { type: 'voicemail', text: 'Please call us back.' }, position: at },
      { id: 'opt_out', kind: 'global', name: 'Opts out', intent: 'opt_out', text: "I've taken your number off our list.", then: 'end', position: at },
    ],
    edges: [
      { id: 'e1', source: 'greeting', target: 'minute', kind: 'next' },
      { id: 'e2', source: 'minute', target: 'minute_yes', kind: 'answer', label: 'Yes', intent: 'yes' },
      { id: 'e3', source: 'minute_yes', target: 'offer', kind: 'next' },
      { id: 'e4', source: 'minute', target: 'end_declined', kind: 'answer', label: 'No', intent: 'no' },
      { id: 'e5', source: 'minute', target: 'voicemail', kind: 'answer', label: 'Voicemail', phrases: ['leave a message'] },
      { id: 'e6', source: 'minute', target: 'offer', kind: 'fallback', label: 'Anything else' },
      { id: 'e7', source: 'offer', target: 'end_agreed', kind: 'answer', label: 'Yes', intent: 'yes' },
      { id: 'e8', source: 'offer', target: 'end_declined', kind: 'fallback', label: 'Anything else' },
      { id: 'e9', source: 'offer', target: 'voicemail', kind: 'answer', label: 'Voicemail', phrases: ['leave a message'] },
    ],
  }
}

/** Handlers over `store` (POST, PUT and DELETE change it; the list pages it by ?page and ?per_page). */
export function agentHandlers(store: Agent[]) {
  const summary = ({ id, name, voice, language, variables, created_at, updated_at }: Agent) => ({ id, name, voice, language, variables, created_at, updated_at })
  const missing = () => HttpResponse.json({ success: false, message: 'Agent not found.', errors: {} }, { status: 404 })
  const saved = (id: string, body: AgentBody, created: string) =>
    makeAgent({
      ...body,
      id,
      created_at: created,
      updated_at: '2026-11-21T09:30:00Z',
      analysis_schema: (body.analysis_schema ?? []).map((f) => ({ name: f.name, type: f.type ?? 'string', description: f.description ?? '' })),
    } as Agent)
  return [
    http.get(url('agents'), ({ request }) => {
      const query = new URL(request.url).searchParams
      const page = Number(query.get('page') ?? 1)
      const perPage = Number(query.get('per_page') ?? 20)
      const rows = store.slice((page - 1) * perPage, page * perPage)
      return HttpResponse.json({
        success: true,
        data: rows.map(summary),
        pagination: { current_page: page, last_page: Math.max(1, Math.ceil(store.length / perPage)), per_page: perPage, total: store.length },
      })
    }),
    http.get(url('agents/:id/derived-flow'), ({ params }) => {
      const agent = store.find((a) => a.id === params.id)
      return agent ? HttpResponse.json({ success: true, data: { graph: derivedGraph(agent), offline: true } }) : missing()
    }),
    http.get(url('agents/:id'), ({ params }) => {
      const agent = store.find((a) => a.id === params.id)
      return agent ? HttpResponse.json({ success: true, data: agent }) : missing()
    }),
    http.post(url('agents'), async ({ request }) => {
      const agent = saved(`agent-${store.length + 1}`, (await request.json()) as AgentBody, '2026-11-21T09:30:00Z')
      store.unshift(agent)
      return HttpResponse.json({ success: true, message: 'Agent created successfully', data: agent }, { status: 201 })
    }),
    http.put(url('agents/:id'), async ({ params, request }) => {
      const index = store.findIndex((a) => a.id === params.id)
      if (index < 0) return missing()
      const agent = saved(String(params.id), (await request.json()) as AgentBody, store[index]!.created_at)
      store[index] = agent
      return HttpResponse.json({ success: true, message: 'Agent updated successfully', data: agent })
    }),
    http.delete(url('agents/:id'), ({ params }) => {
      const index = store.findIndex((a) => a.id === params.id)
      if (index < 0) return missing()
      store.splice(index, 1)
      return HttpResponse.json({ success: true, message: 'Agent deleted successfully' })
    }),
  ]
}
