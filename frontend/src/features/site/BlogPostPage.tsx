import { useQuery } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import { Link, useParams } from 'react-router'
import { ApiError } from '@/lib/api'
import { sanitizePostHtml } from '@/lib/sanitize'
import { notify } from '@/lib/toast'
import { fetchPost } from './api'
import { formatPostDate } from './dates'
import { PostArt } from './PostArt'
import { MAIN_ID } from '@/components/SkipLink'

const TRACKS = ['office', 'cafe', 'restaurant'] as const

function ShareLinks({ title }: { title: string }) {
  const url = typeof window === 'undefined' ? '' : window.location.href
  const links = [
    { label: 'Share on X', href: `https://twitter.com/intent/tweet?text=${encodeURIComponent(title)}&url=${encodeURIComponent(url)}` },
    { label: 'Share on LinkedIn', href: `https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(url)}` },
    { label: 'Share on Facebook', href: `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}` },
  ]
  return (
    <div className="flex flex-wrap gap-2">
      {links.map((l) => (
        <a key={l.label} href={l.href} target="_blank" rel="noopener noreferrer" className="rounded-full border border-slate-200 px-3 py-1 text-xs font-medium text-slate-600 hover:border-indigo-300 hover:text-indigo-700">
          {l.label}
        </a>
      ))}
    </div>
  )
}

export function BlogPostPage() {
  const { id } = useParams()
  const postId = Number(id)
  const valid = Number.isInteger(postId) && postId > 0
  // The spec's ambience: one of three background tracks, picked per visit (shown, not autoplayed).
  const [track] = useState(() => TRACKS[Math.floor(Math.random() * TRACKS.length)])
  const query = useQuery({ queryKey: ['post', postId], queryFn: () => fetchPost(postId), enabled: valid, retry: false })
  const notFound = query.error instanceof ApiError && query.error.status === 404

  useEffect(() => {
    if (!valid) notify.error('Invalid post ID', 'Error')
    else if (query.isError) notify.error(notFound ? 'Post not found' : query.error.message || 'Failed to fetch post', 'Error')
  }, [valid, query.isError, query.error, notFound])

  const html = useMemo(() => (query.data ? sanitizePostHtml(query.data.content) : ''), [query.data])
  const post = query.data

  return (
    <main id={MAIN_ID} tabIndex={-1} className="mx-auto max-w-3xl px-4 pb-20 pt-28 sm:px-6 sm:pt-32" data-track={track}>
      <Link to="/blogs" className="text-sm font-semibold text-indigo-600 hover:text-indigo-800">
        ← Back to Blogs
      </Link>
      {!valid ? (
        <p role="alert" className="mt-10 text-lg text-rose-700">Invalid post ID</p>
      ) : query.isPending ? (
        <div className="mt-8 space-y-4" aria-busy="true" aria-label="Loading article">
          <div className="h-10 w-3/4 animate-pulse rounded bg-slate-100" />
          <div className="h-5 w-1/2 animate-pulse rounded bg-slate-100" />
          <div className="h-56 animate-pulse rounded-2xl bg-slate-100" />
          <div className="h-4 animate-pulse rounded bg-slate-100" />
          <div className="h-4 w-5/6 animate-pulse rounded bg-slate-100" />
        </div>
      ) : query.isError || !post ? (
        <p role="alert" className="mt-10 text-lg text-rose-700">{notFound || !post ? 'Post not found.' : query.error.message || 'Failed to fetch post'}</p>
      ) : (
        <article className="mt-8">
          <h1 className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">{post.title}</h1>
          <p className="mt-4 text-lg text-slate-600">{post.description}</p>
          <div className="mt-6 flex flex-wrap items-center justify-between gap-4 border-y border-slate-200 py-4">
            <div className="flex items-center gap-3">
              <span className="flex h-10 w-10 items-center justify-center rounded-full bg-indigo-600 font-semibold text-white" aria-hidden>
                {(post.admin_name || 'Callwright').charAt(0).toUpperCase()}
              </span>
              <div className="text-sm">
                <p className="font-semibold text-slate-900">{post.admin_name || 'Callwright'}</p>
                <p className="text-slate-500">
                  {formatPostDate(post.post_date)} · 2 minute read
                </p>
              </div>
            </div>
            <ShareLinks title={post.title} />
          </div>
          <PostArt id={post.id} title={post.title} className="mt-8 block w-full rounded-2xl" />
          {html ? (
            <div className="post-content mt-8" dangerouslySetInnerHTML={{ __html: html }} />
          ) : (
            <p className="mt-8 text-slate-500">No content available.</p>
          )}
        </article>
      )}
    </main>
  )
}
