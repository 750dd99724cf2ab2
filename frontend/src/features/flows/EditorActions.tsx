/** The editor's bar: where the flow stands (saved or not, published version), Save draft,
 * Publish (only a saved draft without problems), Export. */
import { Download, Save, Upload } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/card'
import type { Flow } from './types'
import type { useFlowEditor } from './useFlowEditor'

export function EditorActions({ flow, editor }: { flow: Flow; editor: ReturnType<typeof useFlowEditor> }) {
  const { dirty, doc, save, publish, exportFile } = editor
  const problems = flow.problems.length
  const why = dirty
    ? 'Save the draft before publishing'
    : problems
      ? `Fix ${problems} problem${problems === 1 ? '' : 's'} before publishing`
      : flow.published_version && !flow.has_unpublished_changes
        ? 'The draft is what is published'
        : null
  return (
    <div className="flex flex-wrap items-center gap-3 rounded-xl border border-slate-200 bg-white px-4 py-2.5">
      <p className="text-sm text-slate-700" data-testid="flow-status">
        <span className={dirty ? 'font-semibold text-amber-700' : 'text-slate-500'}>{dirty ? 'Unsaved changes' : 'All changes saved'}</span>
        <span aria-hidden> · </span>
        {flow.published_version ? `Published version ${flow.published_version}` : 'Not published yet'}
        {flow.published_version && flow.has_unpublished_changes && !dirty ? ' (the draft differs)' : ''}
      </p>
      <div className="ml-auto flex flex-wrap items-center gap-2">
        {why && <span className="text-xs text-slate-500" id="publish-why">{why}</span>}
        <Button variant="secondary" onClick={() => exportFile.mutate()} disabled={exportFile.isPending}>
          <Download className="h-4 w-4" aria-hidden /> Export
        </Button>
        <Button variant="secondary" onClick={() => save.mutate(doc)} disabled={!dirty || save.isPending}>
          {save.isPending ? <Spinner className="h-4 w-4" /> : <Save className="h-4 w-4" aria-hidden />} Save draft
        </Button>
        <Button onClick={() => publish.mutate()} disabled={Boolean(why) || publish.isPending} aria-describedby={why ? 'publish-why' : undefined}>
          {publish.isPending ? <Spinner className="h-4 w-4" /> : <Upload className="h-4 w-4" aria-hidden />} Publish
        </Button>
      </div>
    </div>
  )
}
