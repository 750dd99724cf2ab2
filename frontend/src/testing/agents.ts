/** A fake agents API for feature tests: an in-memory store behind the real routes, with the
 * server's shapes (typed from the generated schema). */
import { http, HttpResponse } from 'msw'
import type { components } from '@/lib/api-schema'
import { placeholders } from '@/lib/variables'
import { url } from './msw'

type Agent = components['schemas']['AgentOut']
type AgentBody = components['schemas']['AgentIn']

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
