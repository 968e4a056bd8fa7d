// Lint: typescript-eslint recommended + module boundaries (a service never
// imports another service; libraries never import services).
import tseslint from 'typescript-eslint';

const SERVICES = ['gateway', 'auth', 'meta', 'data', 'comments', 'storage', 'integrations', 'hooks'];

const serviceBoundary = (self) => ({
  files: [`services/${self}/**/*.ts`],
  rules: {
    'no-restricted-imports': ['error', {
      patterns: [
        { group: SERVICES.filter((s) => s !== self).flatMap((s) => [`**/services/${s}/**`, `@tabula/${s}-service`, `../../${s}/**`, `../${s}/**`]), message: 'A service never imports another service: use its internal API or its events.' },
      ],
    }],
  },
});

export default tseslint.config(
  { ignores: ['**/node_modules/**', 'dist/**', 'data/**', 'libs/contracts/src/gen/**', 'coverage/**', '.nx/**', '.stryker-tmp/**', 'reports/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['libs/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/services/**', '@tabula/*-service'], message: 'Libraries never import services.' }],
      }],
    },
  },
  ...SERVICES.map(serviceBoundary),
);
