/** The post editor: TipTap (ProseMirror) with a toolbar for headings, bold, italic, underline,
 * strike, lists, quotes, code, links and images; 300 px high. It edits HTML; the server keeps
 * only the public page's allow-list of tags and attributes. */
import Image from '@tiptap/extension-image'
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react'
import StarterKit from '@tiptap/starter-kit'
import { Bold, Code, Heading2, Heading3, ImagePlus, Italic, Link2, List, ListOrdered, Quote, Redo2, SquareCode, Strikethrough, Underline, Undo2 } from 'lucide-react'
import type { LucideIcon } from 'lucide-react'
import { cn } from '@/lib/cn'

const SAFE_URL = /^(https?:\/\/|mailto:|\/)/i

export function RichTextEditor({ value, onChange, invalid, id }: { value: string; onChange: (html: string) => void; invalid?: boolean; id: string }) {
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: { openOnClick: false, protocols: ['http', 'https', 'mailto'] } }), Image],
    content: value,
    editorProps: {
      attributes: {
        id,
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-invalid': invalid ? 'true' : 'false',
        class: 'post-content h-[300px] overflow-y-auto px-4 py-3 focus:outline-none',
      },
    },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
    immediatelyRender: true,
  })
  return (
    <div className={cn('overflow-hidden rounded-lg border bg-white', invalid ? 'border-rose-400' : 'border-slate-300')}>
      {editor && <Toolbar editor={editor} />}
      <EditorContent editor={editor} />
    </div>
  )
}

function Toolbar({ editor }: { editor: Editor }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      strike: e.isActive('strike'),
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      quote: e.isActive('blockquote'),
      code: e.isActive('code'),
      codeBlock: e.isActive('codeBlock'),
      link: e.isActive('link'),
    }),
  })
  const chain = () => editor.chain().focus()
  const link = () => {
    const previous = (editor.getAttributes('link').href as string | undefined) ?? 'https://'
    const url = window.prompt('Link URL', previous)
    if (url === null) return
    if (url.trim() === '') return void chain().extendMarkRange('link').unsetLink().run()
    if (!SAFE_URL.test(url.trim())) return window.alert('Links must start with http://, https://, mailto: or /')
    chain().extendMarkRange('link').setLink({ href: url.trim() }).run()
  }
  const image = () => {
    const url = window.prompt('Image URL', 'https://')
    if (!url?.trim()) return
    if (!/^(https?:\/\/|\/)/i.test(url.trim())) return window.alert('Images must be http(s) URLs')
    chain().setImage({ src: url.trim(), alt: '' }).run()
  }
  const buttons: [string, LucideIcon, boolean, () => void][] = [
    ['Heading 2', Heading2, state.h2, () => chain().toggleHeading({ level: 2 }).run()],
    ['Heading 3', Heading3, state.h3, () => chain().toggleHeading({ level: 3 }).run()],
    ['Bold', Bold, state.bold, () => chain().toggleBold().run()],
    ['Italic', Italic, state.italic, () => chain().toggleItalic().run()],
    ['Underline', Underline, state.underline, () => chain().toggleUnderline().run()],
    ['Strikethrough', Strikethrough, state.strike, () => chain().toggleStrike().run()],
    ['Bulleted list', List, state.bullet, () => chain().toggleBulletList().run()],
    ['Numbered list', ListOrdered, state.ordered, () => chain().toggleOrderedList().run()],
    ['Quote', Quote, state.quote, () => chain().toggleBlockquote().run()],
    ['Inline code', Code, state.code, () => chain().toggleCode().run()],
    ['Code block', SquareCode, state.codeBlock, () => chain().toggleCodeBlock().run()],
    ['Link', Link2, state.link, link],
    ['Image', ImagePlus, false, image],
    ['Undo', Undo2, false, () => chain().undo().run()],
    ['Redo', Redo2, false, () => chain().redo().run()],
  ]
  return (
    <div role="toolbar" aria-label="Formatting" className="flex flex-wrap gap-0.5 border-b border-slate-200 bg-slate-50 p-1">
      {buttons.map(([label, Icon, active, run]) => (
        <button
          key={label}
          type="button"
          title={label}
          aria-label={label}
          aria-pressed={active}
          onClick={run}
          className={cn('rounded p-1.5 text-slate-600 hover:bg-white hover:text-slate-900', active && 'bg-white text-indigo-700 ring-1 ring-slate-200')}
        >
          <Icon className="h-4 w-4" aria-hidden />
        </button>
      ))}
    </div>
  )
}
