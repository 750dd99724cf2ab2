/** The browser's second pass over post HTML (the server already cleaned it with the same
 * allow-list): DOMPurify with the spec's tags and attributes, links opened safely. */
import DOMPurify from 'dompurify'

export const ALLOWED_TAGS = [
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'b', 'strong', 'i', 'em', 'u', 's', 'strike', 'del',
  'ul', 'ol', 'li', 'a', 'img', 'span', 'div', 'blockquote', 'code', 'pre',
  'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td',
]
export const ALLOWED_ATTR = ['href', 'src', 'alt', 'style', 'class', 'target', 'rel']
const SAFE_URL = /^(?:https?:|mailto:|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i
const CSS_FUNCTION = /([a-z-]+)\s*\(/gi
const CSS_FUNCTIONS_ALLOWED = new Set(['rgb', 'rgba', 'hsl', 'hsla'])

function cleanStyle(value: string): string {
  return value
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d && !d.includes('\\') && !d.includes('/*') && [...d.matchAll(CSS_FUNCTION)].every((m) => CSS_FUNCTIONS_ALLOWED.has(m[1].toLowerCase())))
    .join(';')
}

let hooked = false
function hook(): void {
  if (hooked) return
  hooked = true
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.hasAttribute('style')) {
      const style = cleanStyle(node.getAttribute('style') ?? '')
      if (style) node.setAttribute('style', style)
      else node.removeAttribute('style')
    }
    for (const name of ['src', 'href']) {
      // DOMPurify lets data: images through; the server's allow-list does not.
      if (/^\s*(data|javascript|vbscript):/i.test(node.getAttribute(name) ?? '')) node.removeAttribute(name)
    }
    if (node.tagName === 'A') {
      const target = node.getAttribute('target')
      if (target && target !== '_blank' && target !== '_self') node.removeAttribute('target')
      node.setAttribute('rel', 'noopener noreferrer nofollow')
    }
  })
}

export function sanitizePostHtml(html: string): string {
  hook()
  return DOMPurify.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOWED_URI_REGEXP: SAFE_URL,
    ALLOW_DATA_ATTR: false,
    FORBID_CONTENTS: ['script', 'style', 'iframe', 'object', 'embed', 'template', 'noscript'],
  })
}
