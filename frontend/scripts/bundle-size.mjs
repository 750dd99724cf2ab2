// Prints the gzip size of the JavaScript the landing route (/) loads: the entry script and the
// chunks index.html preloads. Everything else is lazy-loaded. Fails above the budget. Also
// prints the brotli size the server really sends (the build's precompressed .br variants).
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

const BUDGET_KB = 150
const dist = new URL('../dist/', import.meta.url).pathname
const html = readFileSync(join(dist, 'index.html'), 'utf8')
const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1])
let total = 0
let brotli = 0
for (const file of new Set(files)) {
  const size = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length
  const br = existsSync(join(dist, `${file}.br`)) ? readFileSync(join(dist, `${file}.br`)).length : size
  total += size
  brotli += br
  console.log(`  ${file}: ${(size / 1024).toFixed(1)} KB gzip, ${(br / 1024).toFixed(1)} KB brotli`)
}
const kb = total / 1024
console.log(`landing route JavaScript: ${kb.toFixed(1)} KB gzip, ${(brotli / 1024).toFixed(1)} KB brotli (budget ${BUDGET_KB} KB gzip)`)
if (kb > BUDGET_KB) {
  console.error('over budget')
  process.exit(1)
}
