// Prints the gzip size of the JavaScript the landing route (/) loads: the entry script and the
// chunks index.html preloads. Everything else is lazy-loaded. Fails above the budget.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

const BUDGET_KB = 150
const dist = new URL('../dist/', import.meta.url).pathname
const html = readFileSync(join(dist, 'index.html'), 'utf8')
const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1])
let total = 0
for (const file of new Set(files)) {
  const size = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length
  total += size
  console.log(`  ${file}: ${(size / 1024).toFixed(1)} KB gzip`)
}
const kb = total / 1024
console.log(`landing route JavaScript: ${kb.toFixed(1)} KB gzip (budget ${BUDGET_KB} KB)`)
if (kb > BUDGET_KB) {
  console.error('over budget')
  process.exit(1)
}
