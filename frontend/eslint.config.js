import { readdirSync } from 'node:fs'
import js from '@eslint/js'
import globals from 'globals'
import reactHooks from 'eslint-plugin-react-hooks'
import reactRefresh from 'eslint-plugin-react-refresh'
import tseslint from 'typescript-eslint'
import { defineConfig, globalIgnores } from 'eslint/config'

const FEATURES = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)

export default defineConfig([
  globalIgnores(['dist', 'coverage', 'playwright-report', 'test-results', 'e2e-artifacts', 'src/lib/api-schema.d.ts']),
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, tseslint.configs.recommended, reactHooks.configs.flat.recommended, reactRefresh.configs.vite],
    languageOptions: { ecmaVersion: 2023, globals: { ...globals.browser, ...globals.node } },
    rules: {
      'react-refresh/only-export-components': ['error', { allowConstantExport: true }],
    },
  },
  // Boundaries: shared code (components/, lib/) imports no feature and no app/; a feature imports
  // no other feature (what two features share moves to components/ or lib/). app/ wires them.
  {
    files: ['src/components/**', 'src/lib/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@/features/*', '@/app/*', '**/features/*', '**/app/*'], message: 'Shared code imports no feature and no app/.' }] },
      ],
    },
  },
  ...FEATURES.map((feature) => ({
    files: [`src/features/${feature}/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@/features/*', `!@/features/${feature}`, `!@/features/${feature}/**`, '@/app/*'],
              message: 'A feature imports no other feature and no app/: move what they share to components/ or lib/.',
            },
            { group: ['../*/**', '../../*/**'], message: 'Import across folders with the @/ alias (the boundary rules read it).' },
          ],
        },
      ],
    },
  })),
  // Size: no function in the app's code over 150 lines, counted from its first line to its last
  // (a component with all it holds; a hook too). A bigger one splits along its parts: sections,
  // rows, dialogs, hooks for its data. Tests are left out (a describe block holds its cases).
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}', 'src/testing/**'],
    rules: { 'max-lines-per-function': ['error', { max: 150 }] },
  },
  {
    files: ['src/**/*.test.{ts,tsx}', 'src/testing/**', 'e2e/**'],
    rules: { 'react-refresh/only-export-components': 'off' },
  },
])
