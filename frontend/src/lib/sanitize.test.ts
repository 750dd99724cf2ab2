import { describe, expect, it } from 'vitest'
import corpus from '@/testing/xss-corpus.json'
import { ALLOWED_ATTR, ALLOWED_TAGS, sanitizePostHtml } from './sanitize'

const BAD_URL = /^\s*(javascript|vbscript|data):/i

function assertSafe(html: string): void {
  const root = document.createElement('div')
  root.innerHTML = html
  for (const el of root.querySelectorAll('*')) {
    expect(ALLOWED_TAGS).toContain(el.tagName.toLowerCase())
    for (const attr of el.attributes) {
      expect(ALLOWED_ATTR).toContain(attr.name)
      if (attr.name === 'href' || attr.name === 'src') expect(attr.value).not.toMatch(BAD_URL)
      if (attr.name === 'style') {
        expect(attr.value.toLowerCase()).not.toContain('url(')
        expect(attr.value.toLowerCase()).not.toContain('expression')
      }
      if (attr.name === 'rel') expect(attr.value).toBe('noopener noreferrer nofollow')
      if (attr.name === 'target') expect(['_blank', '_self']).toContain(attr.value)
    }
  }
}

describe('sanitizePostHtml (the XSS corpus shared with the server test)', () => {
  it.each(corpus as string[])('%s comes out safe', (html) => {
    const clean = sanitizePostHtml(html)
    assertSafe(clean)
    expect(sanitizePostHtml(clean)).toBe(clean)
  })

  it('keeps what the editor writes', () => {
    const clean = sanitizePostHtml(
      '<h2 style="text-align:center">T</h2><p><strong>b</strong> <a href="https://example.com" target="_blank">l</a></p><img src="https://example.com/a.png" alt="A"><pre><code>x</code></pre><table><tbody><tr><td>c</td></tr></tbody></table>',
    )
    expect(clean).toContain('<h2 style="text-align:center">T</h2>')
    expect(clean).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">l</a>')
    expect(clean).toContain('<img src="https://example.com/a.png" alt="A">')
    expect(clean).toContain('<pre><code>x</code></pre>')
    expect(clean).toContain('<td>c</td>')
  })
})
