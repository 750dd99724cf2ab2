/** The flow document and the flows API's shapes (docs/flows.md): the generated schema's, from
 * src/callwright/voice_agent/flow_graph.py and flows/schemas.py. The "test in text" turn is typed
 * here by hand from flow_graph.py (TextTurnIn / TextTurnOut): its route is wired at merge. */
import type { components } from '@/lib/api-schema'

type Schemas = components['schemas']
export type FlowGraph = Schemas['FlowGraph']
export type FlowNode = FlowGraph['nodes'][number]
export type NodeKind = FlowNode['kind']
export type SayNode = Schemas['SayNode']
export type AskNode = Schemas['AskNode']
export type DecideNode = Schemas['DecideNode']
export type ActionNode = Schemas['ActionNode']
export type GlobalNode = Schemas['GlobalNode']
export type FlowAction = ActionNode['action']
export type ActionType = FlowAction['type']
export type FlowEdge = Schemas['Edge']
export type EdgeKind = NonNullable<FlowEdge['kind']>
export type AnswerIntent = NonNullable<FlowEdge['intent']>
export type Condition = Schemas['Condition']
export type ConditionOp = Condition['op']
export type Variable = Schemas['Variable']
export type VariableType = NonNullable<Variable['type']>
export type GlobalIntent = GlobalNode['intent']
export type Position = Schemas['Position']
export type Problem = Schemas['Problem']
export type Flow = Schemas['FlowOut']
export type FlowSummary = Schemas['FlowSummary']
export type FlowStarter = Schemas['FlowStarter']
export type FlowCreate = Schemas['FlowCreate']
export type FlowExport = Schemas['FlowExport']

export interface FlowState {
  node_id?: string | null
  tries?: number
  variables?: Record<string, string>
  return_to?: string | null
  ended?: boolean
}

export interface Step {
  node_id: string
  node_name: string
  edge_id?: string | null
  reason?: string
  heard?: string | null
  captured?: Record<string, string>
  at?: number | null
}

export interface TextTurnIn {
  state?: FlowState | null
  said?: string | null
  variables?: Record<string, string>
}

export interface TextTurnOut {
  state: FlowState
  lines: string[]
  steps: Step[]
  actions?: string[]
  ended?: boolean
  end_reason?: string | null
}

export interface Ok<T> {
  success?: boolean
  message?: string
  data: T
}
