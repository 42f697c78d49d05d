import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'build/**',
      'public/build/**',
      '.wrangler/**',
      'node_modules/**',
      'drizzle/migrations/**',
      'test-output/**',
      'app/locales/index.ts',
      'app/locales/all.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // Pages never load zod with their scripts (docs/page-kit.md, "What a route imports"): schemas come from
    // ~/lib/schemas.server (emptied in the browser build), a form that validates in the browser loads its
    // schema lazily (useSchemaForm's `import()`), value lists from the areas' pure modules. Type-only
    // imports are erased and stay allowed. `npm run check:bundle` checks the same on the build, exactly:
    // zod in the static imports of any page, under any module name.
    files: ['app/routes/**/*.{ts,tsx}', 'app/components/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'zod',
              message: 'Define the schema in workers/domain/<area>/schema.ts (docs/page-kit.md).',
              allowTypeImports: true,
            },
            {
              name: '@conform-to/zod',
              message: 'Use useSchemaForm and constraintsOf (docs/page-kit.md).',
              allowTypeImports: true,
            },
          ],
          patterns: [
            {
              group: ['@server/domain/**/schema'],
              message:
                'Import schemas from ~/lib/schemas.server and values from pure modules (docs/page-kit.md).',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    // D1 takes at most 100 bound parameters in a statement, and drizzle's inArray binds one per value: a
    // list that can grow (a page's ids, a selection, a client's campuses) goes through inJson/notInJson
    // (workers/platform/db.ts, one JSON parameter). inArray stays for a fixed list written out in the
    // code (statuses, types, constants spread in) and for a subquery.
    files: ['workers/**/*.ts', 'app/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.name=/^(inArray|notInArray)$/]:not([arguments.1.type=/^(ArrayExpression|TaggedTemplateExpression)$/]):not([arguments.1.callee.property.name=/^(where|from)$/])',
          message:
            'inArray binds one parameter per value (D1 allows 100): use inJson/notInJson from workers/platform/db.ts for a list that can grow.',
        },
        {
          selector:
            'CallExpression[callee.name=/^(inArray|notInArray)$/] > ArrayExpression > SpreadElement:not([argument.name=/^[A-Z][A-Z0-9_]*$/]):not([argument.object.name=/^[A-Z][A-Z0-9_]*$/])',
          message:
            "A list spread into inArray can grow past D1's 100 bound parameters: use inJson/notInJson from workers/platform/db.ts.",
        },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
);
