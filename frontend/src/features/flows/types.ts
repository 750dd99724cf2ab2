/** The flow document and the flows API's shapes (docs/flows.md): the generated schema's, from
 * src/callwright/voice_agent/flow_graph.py and flows/schemas.py. */
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

export type FlowState = Schemas['FlowState']
export type Step = Schemas['Step']
export type TextTurnIn = Schemas['TextTurnIn']
export type TextTurnOut = Schemas['TextTurnOut']

