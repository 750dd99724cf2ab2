/** Post Management (spec sections 2, 4, 5, 8): a table on desktop and cards on phones, 7 per
 * page, add, edit and view modals with the rich-text editor, and delete after a confirmation.
 * Saved posts show on /blogs; the server sanitises content with the public page's allow-list. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Eye, Pencil, Plus, Trash2 } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { Link } from 'react-router'
import { Pager } from '@/components/Pager'
import { Button } from '@/components/ui/button'
import { Card, Skeleton } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Modal } from '@/components/Modal'
import { ApiError } from '@/lib/api'
import { sanitizePostHtml } from '@/lib/sanitize'
import { adminApi, adminKeys, postsQuery, POSTS_PAGE_SIZE, type AdminPost } from './api'
import { PageHeader, TableHead, TableState, TD, TextArea } from '@/components/kit'
import { RichTextEditor } from './RichTextEditor'
import { postErrors } from './rules'

type Dialog = { kind: 'add' } | { kind: 'edit'; post: AdminPost } | { kind: 'view'; post: AdminPost } | null

/** '{action}: {server message}', 'Validation failed' on a 422 without one, else 'Unknown error'. */
function failure(action: string, error: unknown): string {
  if (error instanceof ApiError) return `${action}: ${error.message || (error.status === 422 ? 'Validation failed' : 'Unknown error')}`
  return `${action}: ${error instanceof Error && error.message ? error.message : 'Unknown error'}`
}

const plain = (html: string) => html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim()

export function PostsPage() {
  const [page, setPage] = useState(1)
  const [dialog, setDialog] = useState<Dialog>(null)
  const posts = useQuery(postsQuery(page))
  const client = useQueryClient()
  const rows = posts.data?.posts ?? []
  const invalidate = () => client.invalidateQueries({ queryKey: adminKeys.posts })

  const remove = useMutation({
    mutationFn: (post: AdminPost) => adminApi.deletePost(post.id),
    onSuccess: (_, post) => {
      if (dialog && dialog.kind !== 'add' && dialog.post.id === post.id) setDialog(null)
      void invalidate()
    },
    onError: (error) => window.alert(failure('Failed to delete post', error)),
  })
  const askDelete = (post: AdminPost) => {
    if (window.confirm('Are you sure you want to delete this post?')) remove.mutate(post)
  }

  const actions = (post: AdminPost) => (
    <div className="flex items-center gap-1">
      <Button variant="ghost" size="sm" aria-label={`View ${post.title}`} onClick={() => setDialog({ kind: 'view', post })}>
        <Eye className="h-4 w-4" aria-hidden />
      </Button>
      <Button variant="ghost" size="sm" aria-label={`Edit ${post.title}`} onClick={() => setDialog({ kind: 'edit', post })}>
        <Pencil className="h-4 w-4" aria-hidden />
      </Button>
      <Button variant="ghost" size="sm" aria-label={`Delete ${post.title}`} onClick={() => askDelete(post)} disabled={remove.isPending}>
        <Trash2 className="h-4 w-4 text-rose-600" aria-hidden />
      </Button>
    </div>
  )

  return (
    <div className="space-y-6">
      <PageHeader
        title="Post Management"
        subtitle="Articles on the public blog."
        action={
          <Button onClick={() => setDialog({ kind: 'add' })}>
            <Plus className="h-4 w-4" aria-hidden /> Add New Post
          </Button>
        }
      />
      {posts.isError && (
        <p role="alert" className="text-sm text-rose-600">
          {failure('Failed to load posts', posts.error)}
        </p>
      )}
      <Card className="overflow-hidden">
        <div className="hidden md:block">
          <table className="w-full table-fixed" data-testid="posts-table">
            <TableHead labels={['ID', 'Title', 'Description', 'Content', 'Admin Name', 'Actions']} widths={{ ID: 'w-16', Actions: 'w-36' }} />
            <tbody className="divide-y divide-slate-100">
              <TableState columns={6} rows={POSTS_PAGE_SIZE} loading={posts.isPending} error={null} empty="No posts yet." hasRows={rows.length > 0} />
              {rows.map((post) => (
                <tr key={post.id} className="align-top">
                  <td className={`${TD} tabular-nums`}>{post.id}</td>
                  <td className={`${TD} font-medium text-slate-900`}>
                    <p className="line-clamp-2">{post.title}</p>
                  </td>
                  <td className={TD}>
                    <p className="line-clamp-2">{post.description}</p>
                  </td>
                  <td className={TD}>
                    <p className="line-clamp-2 text-slate-500">{plain(post.content)}</p>
                  </td>
                  <td className={TD}>{post.admin_name ?? '—'}</td>
                  <td className={TD}>{actions(post)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <ul className="divide-y divide-slate-100 md:hidden" aria-label="Posts">
          {posts.isPending
            ? Array.from({ length: 3 }, (_, i) => (
                <li key={i} className="p-4">
                  <Skeleton className="h-16 w-full" />
                </li>
              ))
            : rows.map((post) => (
                <li key={post.id} className="space-y-2 p-4">
                  <p className="font-semibold text-slate-900">{post.title}</p>
                  <p className="line-clamp-2 text-sm text-slate-600">{post.description}</p>
                  <div className="flex items-center justify-between text-xs text-slate-500">
                    <span>
                      #{post.id} · {post.admin_name ?? '—'}
                    </span>
                    {actions(post)}
                  </div>
                </li>
              ))}
        </ul>
        <Pager page={page} lastPage={posts.data?.pagination.last_page ?? 1} onPage={setPage} busy={posts.isFetching} />
      </Card>
      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
        <PostDialog
          post={dialog.kind === 'edit' ? dialog.post : null}
          onClose={() => setDialog(null)}
          onSaved={() => {
            if (dialog.kind === 'add') setPage(1) // new posts go to the top of the list
            void invalidate()
          }}
        />
      )}
      {dialog?.kind === 'view' && (
        <Modal open onOpenChange={(open) => !open && setDialog(null)} title={dialog.post.title}>
          <p className="text-sm text-slate-500">
            {dialog.post.admin_name ?? '—'} · {new Date(dialog.post.post_date).toLocaleDateString(undefined, { dateStyle: 'long' })} ·{' '}
            <Link className="text-indigo-700 hover:underline" to={`/blogs/${dialog.post.id}`} target="_blank">
              Open on the blog
            </Link>
          </p>
          <p className="mt-2 text-sm font-medium text-slate-700">{dialog.post.description}</p>
          <div className="post-content mt-4" dangerouslySetInnerHTML={{ __html: sanitizePostHtml(dialog.post.content) }} />
        </Modal>
      )}
    </div>
  )
}

const toLocalInput = (iso: string) => {
  const d = new Date(iso)
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16)
}

function PostDialog({ post, onClose, onSaved }: { post: AdminPost | null; onClose: () => void; onSaved: () => void }) {
  const [title, setTitle] = useState(post?.title ?? '')
  const [description, setDescription] = useState(post?.description ?? '')
  const [content, setContent] = useState(post?.content ?? '')
  const [adminName, setAdminName] = useState(post?.admin_name ?? '')
  const [postDate, setPostDate] = useState(post ? toLocalInput(post.post_date) : '')
  const [touched, setTouched] = useState(false)
  const errors = postErrors({ title, description, content })
  const valid = Object.keys(errors).length === 0
  const save = useMutation({
    mutationFn: () => {
      const body = { title: title.trim(), description: description.trim(), content, admin_name: adminName.trim() || null, post_date: postDate ? new Date(postDate).toISOString() : null }
      return post ? adminApi.updatePost(post.id, body) : adminApi.createPost(body)
    },
    onSuccess: () => {
      onSaved()
      onClose()
    },
    onError: (error) => window.alert(failure(post ? 'Failed to update post' : 'Failed to create post', error)),
  })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (!valid) return window.alert('Please fill all required fields')
    save.mutate()
  }
  const show = (key: keyof typeof errors) => (touched ? errors[key] : undefined)
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={post ? 'Edit Post' : 'Add New Post'} wide>
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field id="post-title" label="Title" error={show('title')}>
          <Input id="post-title" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={255} aria-invalid={Boolean(show('title'))} />
        </Field>
        <Field id="post-description" label="Description" error={show('description')}>
          <TextArea id="post-description" rows={2} value={description} onChange={(e) => setDescription(e.target.value)} maxLength={5000} aria-invalid={Boolean(show('description'))} />
        </Field>
        <Field id="post-content" label="Content" error={show('content')}>
          <RichTextEditor id="post-content" value={content} onChange={setContent} invalid={Boolean(show('content'))} />
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="post-admin" label="Admin name (optional)" hint="Defaults to your name.">
            <Input id="post-admin" value={adminName} onChange={(e) => setAdminName(e.target.value)} maxLength={255} />
          </Field>
          <Field id="post-date" label="Post date (optional)" hint="Defaults to now.">
            <Input id="post-date" type="datetime-local" value={postDate} onChange={(e) => setPostDate(e.target.value)} />
          </Field>
        </div>
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving...' : post ? 'Update Post' : 'Create Post'}
          </Button>
        </div>
      </form>
    </Modal>
  )
}
