// Prints the gzip size of the JavaScript a route loads on its first paint, and fails above its
// budget. Also prints the brotli size the server really sends (the build's precompressed .br
// variants).
//
// - The landing route (/): the entry script and the chunks index.html preloads. Everything
//   else is lazy-loaded.
// - Send Call (/dashboard/send-call): the same entry, plus the route's lazy chunks (the
//   signed-in layout and the page, app/routes.tsx) and every chunk they import statically,
//   walked in the build's manifest (dist/.vite/manifest.json). What the page imports on demand
//   (the phone-number rules when a number is checked, socket.io when it subscribes) is listed
//   apart and not counted: it is not needed to paint the page.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

const dist = new URL('../dist/', import.meta.url).pathname
const html = readFileSync(join(dist, 'index.html'), 'utf8')
const manifestPath = join(dist, '.vite', 'manifest.json')
if (!existsSync(manifestPath)) {
  console.error('dist/.vite/manifest.json is missing: build with build.manifest (vite.config.ts)')
  process.exit(1)
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))

const sizes = (file) => {
  const gzip = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length
  const br = existsSync(join(dist, `${file}.br`)) ? readFileSync(join(dist, `${file}.br`)).length : gzip
  return { gzip, br }
}

/** The chunks `keys` (manifest keys) load before they run: themselves and their static imports. */
function closure(keys) {
  const seen = new Set()
  const visit = (key) => {
    const chunk = manifest[key]
    if (!chunk) throw new Error(`${key} is not in the build's manifest (was it renamed? update scripts/bundle-size.mjs)`)
    if (seen.has(key)) return
    seen.add(key)
    for (const imported of chunk.imports ?? []) visit(imported)
  }
  keys.forEach(visit)
  return seen
}

/** Sum and print `files`; returns whether they fit `budgetKb` (gzip). */
function report(name, files, budgetKb, later = []) {
  let total = 0
  let brotli = 0
  for (const file of files) {
    const { gzip, br } = sizes(file)
    total += gzip
    brotli += br
    console.log(`  ${file}: ${(gzip / 1024).toFixed(1)} KB gzip, ${(br / 1024).toFixed(1)} KB brotli`)
  }
  for (const file of later) console.log(`  (on demand, not counted) ${file}: ${(sizes(file).gzip / 1024).toFixed(1)} KB gzip`)
  const kb = total / 1024
  console.log(`${name} JavaScript: ${kb.toFixed(1)} KB gzip, ${(brotli / 1024).toFixed(1)} KB brotli (budget ${budgetKb} KB gzip)`)
  if (kb > budgetKb) console.error(`${name}: over budget`)
  return kb <= budgetKb
}

const landingFiles = [...new Set([...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]))]
const landingOk = report('landing route', landingFiles, 150)

const SEND_CALL_CHUNKS = ['index.html', 'src/app/AppLayout.tsx', 'src/features/calls/SendCallPage.tsx']
const sendCall = closure(SEND_CALL_CHUNKS)
const sendCallFiles = [...new Set([...sendCall].map((key) => manifest[key].file))]
const onDemand = new Set()
for (const key of SEND_CALL_CHUNKS.slice(1)) {
  for (const lazy of manifest[key].dynamicImports ?? []) {
    for (const k of closure([lazy])) if (!sendCall.has(k)) onDemand.add(manifest[k].file)
  }
}
for (const key of sendCall) {
  if (SEND_CALL_CHUNKS.slice(1).includes(key) || key === 'index.html') continue
  for (const lazy of manifest[key].dynamicImports ?? []) {
    for (const k of closure([lazy])) if (!sendCall.has(k)) onDemand.add(manifest[k].file)
  }
}
const sendCallOk = report('send-call route', sendCallFiles, 200, [...onDemand].sort())

if (!landingOk || !sendCallOk) process.exit(1)
