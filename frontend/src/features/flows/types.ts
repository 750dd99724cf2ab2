/** The flow document and the flows API's shapes (docs/flows.md), as
 * src/callwright/voice_agent/flow_graph.py and the flows contract define them. */

export type VariableType = 'text' | 'yes_no' | 'number' | 'date' | 'time' | 'name'
export type AnswerIntent = 'yes' | 'no' | 'later' | 'not_interested' | 'wrong_person' | 'question'
export type GlobalIntent = 'person' | 'opt_out' | 'robot' | 'busy'
export type ConditionOp = 'is_set' | 'is_not_set' | 'equals' | 'not_equals' | 'contains' | 'greater_than' | 'less_than'
export type NodeKind = 'say' | 'ask' | 'decide' | 'action' | 'global'
export type EdgeKind = 'next' | 'answer' | 'condition' | 'fallback'

export interface Position {
  x: number
  y: number
}

export interface Variable {
  name: string
  type?: VariableType
  description?: string
}

export interface Capture {
  variable: string
  type?: VariableType
}

export type FlowAction =
  | { type: 'transfer'; number?: string | null; department?: string | null; mode?: 'cold' | 'warm'; text?: string }
  | { type: 'press_digits'; digits: string }
  | { type: 'tool'; tool: string; arguments?: Record<string, string | number | boolean>; result_variable?: string | null }
  | { type: 'end_call'; text?: string }
  | { type: 'voicemail'; text: string }
export type ActionType = FlowAction['type']

interface NodeBase {
  id: string
  name: string
  position?: Position
}

export interface SayNode extends NodeBase {
  kind: 'say'
  text?: string
  instruction?: string
}
export interface AskNode extends NodeBase {
  kind: 'ask'
  text: string
  instruction?: string
  capture?: Capture[]
  retry_text?: string
  max_tries?: number
}
export interface DecideNode extends NodeBase {
  kind: 'decide'
}
export interface ActionNode extends NodeBase {
  kind: 'action'
  action: FlowAction
}
export interface GlobalNode extends NodeBase {
  kind: 'global'
  intent: GlobalIntent
  text?: string
  then?: 'return' | 'end' | 'goto'
}
export type FlowNode = SayNode | AskNode | DecideNode | ActionNode | GlobalNode

export interface Condition {
  variable: string
  op: ConditionOp
  value?: string | null
}

export interface FlowEdge {
  id: string
  source: string
  target: string
  label?: string
  kind?: EdgeKind
  phrases?: string[]
  intent?: AnswerIntent | null
  condition?: Condition | null
}

export interface FlowGraph {
  start_node_id: string
  variables?: Variable[]
  nodes: FlowNode[]
  edges?: FlowEdge[]
}

export interface Problem {
  message: string
  node_id?: string | null
  edge_id?: string | null
}

export interface FlowSummary {
  id: string
  name: string
  description: string
  published_version: number | null
  has_unpublished_changes: boolean
  node_count: number
  created_at: string
  updated_at: string
}

export interface Flow {
  id: string
  name: string
  description: string
  draft: FlowGraph
  problems: Problem[]
  published_version: number | null
  has_unpublished_changes: boolean
  created_at: string
  updated_at: string
}

export interface FlowStarter {
  key: string
  name: string
  description: string
}

export interface FlowCreate {
  name: string
  description?: string
  starter?: string | null
  graph?: FlowGraph | null
}

export interface FlowExport {
  format: string
  name: string
  description?: string
  graph: FlowGraph
}

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

export interface Paged<T> {
  success: boolean
  data: T[]
  pagination: { current_page: number; last_page: number; per_page: number; total: number }
}

export interface Ok<T> {
  success: boolean
  message?: string
  data: T
}
