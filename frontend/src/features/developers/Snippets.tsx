/** Copyable examples: a call through the /v1 API with curl, and verifying a webhook in Python. */
import { Section } from '@/components/panels'
import { CodeBlock } from './parts'
import { curlSnippet, VERIFY_SNIPPET } from './examples'

export function Snippets() {
  const origin = globalThis.location?.origin ?? ''
  return (
    <Section id="snippets" title="Quick start" description="Place a call with an API key, and verify the events we send you.">
      <div className="grid gap-5 px-5 py-4 lg:grid-cols-2">
        <CodeBlock label="Place a call (curl)" code={curlSnippet(origin)} />
        <CodeBlock label="Verify a webhook (Python)" code={VERIFY_SNIPPET} />
      </div>
    </Section>
  )
}
