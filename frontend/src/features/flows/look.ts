/** How each node kind looks (colour, icon, label) and the one line a node shows. */
import { GitBranch, Globe, HelpCircle, MessageSquare, Zap, type LucideIcon } from 'lucide-react'
import type { FlowNode, NodeKind } from './types'

export const KIND_LOOK: Record<NodeKind, { icon: LucideIcon; label: string; card: string; badge: string }> = {
  say: { icon: MessageSquare, label: 'Say', card: 'border-sky-300 bg-sky-50', badge: 'bg-sky-700' },
  ask: { icon: HelpCircle, label: 'Ask', card: 'border-violet-300 bg-violet-50', badge: 'bg-violet-700' },
  decide: { icon: GitBranch, label: 'Decide', card: 'border-amber-300 bg-amber-50 rounded-none', badge: 'bg-amber-700' },
  action: { icon: Zap, label: 'Action', card: 'border-emerald-300 bg-emerald-50', badge: 'bg-emerald-700' },
  global: { icon: Globe, label: 'Global', card: 'border-dashed border-rose-300 bg-rose-50', badge: 'bg-rose-700' },
}

/** The node's line, or what it does when it has none. */
export function nodeSummary(node: FlowNode): string {
  switch (node.kind) {
    case 'say':
      return node.text || node.instruction || ''
    case 'ask':
      return node.text
    case 'decide':
      return 'Chooses by the variables'
    case 'action':
      return node.action.type === 'press_digits' ? `Press ${node.action.digits}` : node.action.type === 'tool' ? `Tool ${node.action.tool}` : (node.action.text ?? node.action.type)
    case 'global':
      return `On "${node.intent.replace('_', ' ')}": ${node.text || '(no line)'}`
  }
}

