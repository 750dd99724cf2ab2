import { defineConfig, mergeConfig } from 'vitest/config'
import viteConfig from './vite.config.ts'

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      environment: 'jsdom',
      globals: false,
      setupFiles: ['./src/testing/setup.ts'],
      include: ['src/**/*.test.{ts,tsx}'],
      css: false,
      testTimeout: 60000,
      // Vitest's default is one worker less than the cores: one worker on a 2-core CI box, where
      // the test files mostly wait (timers, rendering, fake requests). Two use the box.
      maxWorkers: 2,
    },
  }),
)
