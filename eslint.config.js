// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** Import boundaries of ARCHITECTURE.md §2, enforced here and by the three tsconfig projects. */
const noServerFromClient = {
  patterns: [
    {
      group: ['**/server/**', '../server/*'],
      message: 'app 与 workers 不能引用 server 代码（连类型也不行）',
    },
    {
      // The whole catalogue would load with every page that imports it (issue 25).
      regex: '^(\\.{1,2}/)+(lib/)?i18n(/index)?$',
      message: '请从 lib/i18n/<部分> 引用所需的文字（如 tDrive），不要引用整个目录',
    },
  ],
};

// A dialog opened before its host has mounted would be lost (lib/dialogs.ts).
const noBareModals = {
  ...noServerFromClient,
  paths: [
    {
      name: '@mantine/modals',
      importNames: ['modals'],
      message: '请用 lib/dialogs 的 dialogs 打开对话框：宿主挂载前的调用会等待，而不是丢失',
    },
  ],
};

export default tseslint.config(
  { ignores: ['dist', 'dist-server', 'data', 'node_modules', 'test-results', 'playwright-report', '.tmp'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'react', 'react-dom', '**/server/**', '**/app/**'],
              message: 'shared 只能引用 zod 与自身',
            },
          ],
        },
      ],
    },
  },
  {
    // Served as is, before the app's code (public/launch-snapshot.js): a browser's script.
    files: ['public/**/*.js'],
    languageOptions: { globals: { ...globals.browser, module: 'readonly' } },
  },
  {
    files: ['src/app/**/*.{ts,tsx}', 'workers/**/*.ts'],
    languageOptions: { globals: { ...globals.browser, ...globals.serviceworker } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', noBareModals],
    },
  },
  {
    files: ['src/app/lib/dialogs.ts'],
    rules: { 'no-restricted-imports': ['error', noServerFromClient] },
  },
  {
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/**/*.repo.ts', 'src/server/db/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'kysely',
              allowTypeImports: true,
              message: '只有 repo 与 server/db 直接使用 Kysely 查询',
            },
          ],
        },
      ],
    },
  },
);
