import { defineConfig } from '@playwright/test'

// Debian's Chromium (apt-get install chromium); Playwright downloads no browser here.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const PORT = Number(process.env.E2E_PORT ?? 8100)
// The test command runs the specs as two groups at once (E2E_GROUP=a and b), each against a
// server of its own (its own port, a fresh database: no state shared): a spec mostly waits on
// calls at real time, so one group at a time left the box about half idle. Group a: these specs
// (about half of the time); b: every other one, new ones included. No group: all of them.
const GROUP_A = ['a11y', 'admin', 'campaigns', 'site'].map((name) => `**/${name}.spec.ts`)
const GROUP = process.env.E2E_GROUP

export default defineConfig({
  testDir: './e2e',
  ...(GROUP === 'a' && { testMatch: GROUP_A }),
  ...(GROUP === 'b' && { testIgnore: GROUP_A }),
  outputDir: GROUP ? `./test-results/group-${GROUP}` : './test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
  webServer: {
    // The real backend on the embedded default, serving the production build.
    command: 'bash ../scripts/e2e-server.sh',
    url: `http://127.0.0.1:${PORT}/api/v1/health`,
    env: { E2E_PORT: String(PORT) },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
})
