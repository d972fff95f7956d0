// ESLint enforces the architecture's dependency rule (docs/architecture.md) so that a wrong
// import arrow fails `npm test` instead of waiting for a review. Cycles between folders are
// checked by scripts/check-cycles.mjs, which `npm run lint` runs first.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'

const thirdPartyUi = ['react', 'react-dom', 'react-dom/*', '@xyflow/react', 'zustand', 'zustand/*', 'zundo']
const storageLibs = ['dexie', 'dexie-react-hooks']

/** Builds a no-restricted-imports rule from forbidden path groups with one message each. */
function forbid(...groups) {
  return ['error', { patterns: groups.map(([group, message]) => ({ group, message })) }]
}

export default tseslint.config(
  {
    // src/sandbox/generated/: made by `npm run generate` from the .ts beside it, which is linted.
    ignores: [
      'dist',
      'dist-pages',
      'node_modules',
      'test-results',
      'playwright-report',
      'public',
      'docs',
      'src/sandbox/generated',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-throw-literal': 'error',
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['src/**/*.tsx', 'src/ui/**/*.ts', 'src/app/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['tests/**', 'e2e/**', 'bench/**'],
    rules: { 'max-lines': ['error', { max: 600, skipBlankLines: true, skipComments: true }] },
  },
  // engine/: pure TypeScript. Only defaults.ts and itself.
  {
    files: ['src/engine/**'],
    rules: {
      'no-restricted-imports': forbid(
        [
          [...thirdPartyUi, ...storageLibs, 'zod', 'node:*', 'fs', 'path'],
          'engine/ is pure TypeScript: it imports only defaults.ts.',
        ],
        [
          [
            '**/nodes/**',
            '**/providers/**',
            '**/sandbox/**',
            '**/storage/**',
            '**/store/**',
            '**/ui/**',
            '**/app/**',
            '**/cli/**',
            '**/i18n/**',
          ],
          'engine/ never imports other layers: they are handed in through the context.',
        ],
      ),
      'no-restricted-globals': [
        'error',
        'window',
        'document',
        'localStorage',
        'indexedDB',
        'fetch',
        'setTimeout',
        'setInterval',
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Use ctx.clock.now().' },
      ],
    },
  },
  // nodes/*.ts: engine, defaults and their own folder (zod for schemas).
  {
    files: ['src/nodes/**/*.ts'],
    rules: {
      'no-restricted-imports': forbid(
        [
          [...thirdPartyUi, ...storageLibs, 'node:*'],
          'Node definitions and executors are pure: no React, Dexie or Node built-ins.',
        ],
        [
          [
            '**/providers/**',
            '**/sandbox/**',
            '**/storage/**',
            '**/store/**',
            '**/ui/**',
            '**/app/**',
            '**/cli/**',
          ],
          'nodes/ may import engine/, defaults.ts and its own folder only.',
        ],
      ),
    },
  },
  {
    files: ['src/nodes/**/*.tsx'],
    rules: {
      'no-restricted-imports': forbid(
        [[...storageLibs], 'Node bodies never touch storage.'],
        [
          ['**/providers/**', '**/sandbox/**', '**/storage/**', '**/app/**', '**/cli/**'],
          'Node bodies may import engine/, defaults.ts, their folder and ui/kit.',
        ],
      ),
    },
  },
  {
    files: ['src/providers/**', 'src/sandbox/**'],
    rules: {
      'no-restricted-imports': forbid(
        [
          [...thirdPartyUi, ...storageLibs],
          'Providers and sandboxes run in the browser and in Node: no UI or storage.',
        ],
        [
          ['**/storage/**', '**/store/**', '**/ui/**', '**/app/**', '**/nodes/**'],
          'Providers and sandboxes implement engine ports only.',
        ],
      ),
    },
  },
  {
    files: ['src/storage/**'],
    rules: {
      'no-restricted-imports': forbid(
        [[...thirdPartyUi], 'storage/ has no UI.'],
        [
          ['**/store/**', '**/ui/**', '**/app/**'],
          'storage/ and store/ never import each other; app/ wires them.',
        ],
      ),
    },
  },
  {
    files: ['src/store/**'],
    rules: {
      'no-restricted-imports': forbid(
        [[...storageLibs], 'store/ never touches Dexie; app/ subscribes it to storage.'],
        [
          ['**/storage/**', '**/providers/**', '**/sandbox/**', '**/app/**', '**/ui/**'],
          'store/ never imports storage, providers, the sandbox, app/ or ui/ (ui/ reads the stores).',
        ],
      ),
    },
  },
  {
    files: ['src/ui/**'],
    rules: {
      'no-restricted-imports': forbid(
        [[...storageLibs], 'ui/ never calls Dexie directly.'],
        [
          ['**/providers/**', '**/sandbox/**', '**/storage/**', '**/app/**'],
          'ui/ reads the stores and calls the services it declares (ui/services.ts); app/ implements them.',
        ],
      ),
    },
  },
  // app/core/ loads with the page; an area's code loads on first use, through app/areas.ts only.
  {
    files: ['src/app/core/**'],
    rules: {
      'no-restricted-imports': forbid([
        // Relative to app/core/ (the patterns match the import's text).
        ['../runs/**', '../settings/**', '../files/**', '../templates/**', '../areas.ts'],
        'app/core/ never imports an area: app/areas.ts lists them and loads each on first use.',
      ]),
    },
  },
  {
    files: ['e2e/**'],
    rules: {
      'no-restricted-imports': forbid([
        ['**/src/**'],
        'e2e drives the built app like a person: it imports nothing from src/.',
      ]),
    },
  },
)
