/** The public site's calls, with the spec's fallback messages. */
import { api, unwrap } from '@/lib/api'
import type { components } from '@/lib/api-schema'

export type Post = components['schemas']['PostOut']
export type EnterpriseBody = components['schemas']['EnterpriseIn']
export const BLOG_PAGE_SIZE = 4

export async function placeTestCall(phone_number: string) {
  return unwrap(api.POST('/api/v1/test-call', { body: { phone_number } }), 'Failed to initiate test call')
}

export async function submitContact(body: { email: string; phone: string; message: string }) {
  return unwrap(api.POST('/api/v1/contact', { body }), 'Failed to submit contact form')
}

export async function submitEnterprise(body: EnterpriseBody) {
  return unwrap(api.POST('/api/v1/enterprise', { body }), 'Failed to submit enterprise form')
}

export async function fetchPosts(page: number) {
  const res = await unwrap(api.GET('/api/v1/posts', { params: { query: { page, per_page: BLOG_PAGE_SIZE } } }), 'Failed to load blog posts')
  return res.data
}

export async function fetchPost(id: number) {
  const res = await unwrap(api.GET('/api/v1/posts/{post_id}', { params: { path: { post_id: id } } }), 'Failed to fetch post')
  return res.data
}
