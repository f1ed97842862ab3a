import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import engineFaces from './scripts/tools/lint/engine-faces.js';

const LAYER_MESSAGE = 'src/ must not import server code from netlify/ or engines/; move the shared part to src/lib.';

/** This codebase's choices for jsx-a11y, for React islands and (through eslint-plugin-astro) .astro files. */
const a11yChoices = (prefix) => ({
  // `role="list"` is kept on purpose: Safari drops list semantics from lists styled without bullets.
  [`${prefix}/no-redundant-roles`]: ['error', { ul: ['list'], ol: ['list'] }],
  // Scrolling containers (tables, carousels, the chat log) take focus so keyboard users can scroll them.
  [`${prefix}/no-noninteractive-tabindex`]: ['error', { tags: [], roles: ['tabpanel', 'region', 'list', 'log', 'application'] }],
  // Every video here (tool results, bundled demos) has no sound track: there is nothing to caption.
  [`${prefix}/media-has-caption`]: 'off',
});

export default defineConfig([
  globalIgnores(['dist/', '.netlify/', '.data/', '.astro/', '.models/', '.tools/', 'node_modules/', 'scratch/', 'coverage/']),
  js.configs.recommended,
  // Not the type-checked presets: `npm run typecheck` checks types, lint stays fast.
  tseslint.configs.recommended,
  astro.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    rules: {
      // `_name` marks a deliberately unused binding; a rest sibling is how an object drops a key.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      // Islands restore browser-only state after hydration and sync object URLs and fetches in effects,
      // which is what this rule flags; there is no React Compiler here to rely on it.
      'react-hooks/set-state-in-effect': 'off',
    },
  },
  {
    files: ['src/**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
  },
  astro.configs['jsx-a11y-recommended'],
  { files: ['src/**/*.tsx'], rules: a11yChoices('jsx-a11y') },
  { files: ['src/**/*.astro'], rules: a11yChoices('astro/jsx-a11y') },
  {
    // The image engine is read by people tuning it: one statement per line.
    files: ['engines/image/**/*.ts'],
    rules: { 'max-statements-per-line': ['error', { max: 1 }] },
  },
  {
    files: ['tests/**', 'scripts/**', 'bench/**'],
    rules: {
      // Fakes and fixtures handle arbitrary JSON from the code under test.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // The engines' rooms: each used through engines/<room>/index.ts only (its own files and tests excepted).
    files: ['**/*.{ts,tsx,mts,js,mjs}'],
    plugins: { local: { rules: { 'engine-faces': engineFaces } } },
    rules: { 'local/engine-faces': 'error' },
  },
  {
    // The layer rule: src/ is the contract both sides share and what the browser bundles, so it never
    // reaches into server code under netlify/.
    files: ['src/**/*.{ts,tsx,astro,js,mjs}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)(netlify|engines)/', message: LAYER_MESSAGE }] },
      ],
      // The same rule for `import('…')` calls and `import('…').Type` annotations, which the rule above does not see.
      'no-restricted-syntax': [
        'error',
        { selector: 'ImportExpression[source.value=/(^|\\/)(netlify|engines)\\//]', message: LAYER_MESSAGE },
        { selector: 'TSImportType[argument.literal.value=/(^|\\/)(netlify|engines)\\//]', message: LAYER_MESSAGE },
      ],
    },
  },
  {
    // Schemas the browser runs take z from src/lib/zod.ts, which turns off zod's eval (the pages' CSP forbids it).
    files: ['src/lib/**/*.{ts,tsx}', 'src/islands/**/*.{ts,tsx}'],
    ignores: ['src/lib/zod.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'zod', message: "Import { z } from src/lib/zod.ts: it runs zod without eval, which the pages' Content-Security-Policy forbids." }],
          patterns: [{ regex: '(^|/)(netlify|engines)/', message: LAYER_MESSAGE }],
        },
      ],
    },
  },
]);
