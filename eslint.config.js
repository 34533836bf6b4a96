// Lint: typescript-eslint's type-checked recommendations over the whole project, with the few
// rules below tuned to how this code is written (see the README's Development section).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'reports/', '.keys/', 'coverage/', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Deliberate: `_` marks a parameter or binding kept for its position.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Deliberate: an async function that does not await still answers a Promise and turns a throw
      // into a rejection, which is what the interfaces it implements (routes, hooks, send) expect.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // The project's own tests read JSON the programs under test wrote (reports, results, answers):
    // they take it as it comes and say what they expect of it in assertions.
    files: ['**/test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
);
