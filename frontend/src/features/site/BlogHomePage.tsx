import { useInfiniteQuery } from '@tanstack/react-query'
import { ArrowRight } from 'lucide-react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { formatPostDate } from './dates'
import { fetchPosts } from './api'
import { PostArt } from './PostArt'
import { SubscribeSection } from './SubscribeSection'
import { MAIN_ID } from '@/components/SkipLink'

export function BlogHomePage() {
  const query = useInfiniteQuery({
    queryKey: ['posts'],
    queryFn: ({ pageParam }) => fetchPosts(pageParam),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.pagination.current_page < last.pagination.last_page ? last.pagination.current_page + 1 : undefined),
  })
  const posts = query.data?.pages.flatMap((p) => p.posts) ?? []

  return (
    <main id={MAIN_ID} tabIndex={-1}>
      <section className="bg-gradient-to-b from-indigo-50 to-white pb-14 pt-32 text-center sm:pt-40">
        <div className="mx-auto max-w-3xl px-4">
          <p className="text-sm font-semibold uppercase tracking-wider text-indigo-600">The Callwright blog</p>
          <h1 className="mt-3 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">Notes on AI calling that works</h1>
          <p className="mt-5 text-lg text-slate-600">Prompts that reach their goal, the voice pipeline behind a natural call, and what our customers learn from thousands of conversations.</p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <Button asChild size="lg">
              <a href="#latest">Latest Articles</a>
            </Button>
            <Button asChild size="lg" variant="secondary">
              <a href="#subscribe">Subscribe to Newsletter</a>
            </Button>
          </div>
        </div>
      </section>
      <section id="latest" className="scroll-mt-24 py-16">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <h2 className="text-2xl font-bold text-slate-900">Latest Articles</h2>
          {query.isPending ? (
            <div className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-4" aria-busy="true" aria-label="Loading articles">
              {[0, 1, 2, 3].map((i) => (
                <div key={i} className="h-80 animate-pulse rounded-2xl bg-slate-100" />
              ))}
            </div>
          ) : query.isError ? (
            <div role="alert" className="mt-8 rounded-xl border border-rose-200 bg-rose-50 p-6 text-rose-800">
              {query.error.message || 'Failed to load blog posts'}
              <Button variant="secondary" className="ml-4" onClick={() => void query.refetch()}>
                Try again
              </Button>
            </div>
          ) : posts.length === 0 ? (
            <p className="mt-8 text-slate-500">No articles yet. Check back soon.</p>
          ) : (
            <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
              {posts.map((post) => (
                <li key={post.id} className="flex flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition hover:shadow-md" data-testid="post-card">
                  <PostArt id={post.id} title={post.title} className="block aspect-[40/22] w-full" />
                  <div className="flex flex-1 flex-col p-5">
                    <p className="text-xs font-medium text-slate-500">{formatPostDate(post.post_date)}</p>
                    <h3 className="mt-2 font-semibold leading-snug text-slate-900">{post.title}</h3>
                    <p className="mt-2 line-clamp-3 flex-1 text-sm text-slate-600">{post.description}</p>
                    <Link to={`/blogs/${post.id}`} className="mt-4 inline-flex items-center gap-1 text-sm font-semibold text-indigo-600 hover:text-indigo-800">
                      Read More <ArrowRight className="h-4 w-4" aria-hidden />
                    </Link>
                  </div>
                </li>
              ))}
            </ul>
          )}
          {posts.length > 0 && (
            <div className="mt-10 text-center">
              <Button size="lg" variant="secondary" disabled={!query.hasNextPage || query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
                {query.isFetchingNextPage ? 'Loading...' : 'Load More Articles'}
              </Button>
            </div>
          )}
        </div>
      </section>
      <SubscribeSection />
    </main>
  )
}
