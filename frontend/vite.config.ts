/// <reference types="node" />
import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { fileURLToPath, URL } from 'node:url'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig, type Plugin } from 'vite'

const backend = process.env.CALLWRIGHT_BACKEND ?? 'http://127.0.0.1:8000'

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest|wasm)$/
/** Smaller files gain nothing worth a second request header. */
const MIN_BYTES = 1024

/** Precompress the build: beside each text file a brotli (`.br`, quality 11) and a gzip (`.gz`,
 * level 9) variant when it is smaller. The server sends the one the browser accepts
 * (callwright.main._mount_spa), so nothing is compressed per request. */
function precompress(): Plugin {
  let outDir = 'dist'
  const brotli = promisify(brotliCompress)
  const gz = promisify(gzip)
  async function files(dir: string): Promise<string[]> {
    const entries = await readdir(dir, { withFileTypes: true })
    const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)])))
    return nested.flat()
  }
  return {
    name: 'callwright-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir)
    },
    async closeBundle() {
      const targets = []
      for (const file of await files(outDir)) {
        if (COMPRESSIBLE.test(file) && (await stat(file)).size >= MIN_BYTES) targets.push(file)
      }
      await Promise.all(
        targets.map(async (file) => {
          const source = await readFile(file)
          const [br, gzipped] = await Promise.all([
            brotli(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: source.length } }),
            gz(source, { level: 9 }),
          ])
          if (br.length < source.length) await writeFile(`${file}.br`, br)
          if (gzipped.length < source.length) await writeFile(`${file}.gz`, gzipped)
        }),
      )
    },
  }
}

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: {
    proxy: {
      '/api': backend,
      '/socket.io': { target: backend, ws: true },
    },
  },
  // The manifest (dist/.vite/, never served) lets scripts/bundle-size.mjs walk a route's chunks.
  build: { sourcemap: false, chunkSizeWarningLimit: 600, manifest: true },
})
