// The project's boundaries, checked by `npm run lint` (part of `npm test`): which code may reach
// the database, and which projects may depend on which. Style is left to the formatter.
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

/** Database clients: only a service's `src/data/` repositories (and libs/db itself) import them. */
const DATABASE_CLIENTS = {
  paths: [
    {
      name: '@teamchat/db',
      importNames: ['PrismaService', 'PgService', 'Prisma', 'queryableOf', 'statement', 'openPrisma'],
      message: 'Only a repository (src/data/*.repository.ts) reaches the database; depend on one instead.',
    },
    { name: 'pg', message: 'Only a repository (src/data/*.repository.ts) reaches the database.' },
    { name: '@prisma/client', message: 'Only a repository (src/data/*.repository.ts) reaches the database.' },
  ],
  patterns: [{ group: ['**/generated/prisma', '**/generated/prisma/**'], message: 'Only libs/db reaches the generated client.' }],
};

/**
 * Files that still break a boundary while issue 23 moves them (a client outside `src/data/`, a
 * tool reaching into a service's internals): the lists only shrink, and a file on neither that
 * breaks a rule fails the lint.
 */
import pending from './tools/lint/pending-boundaries.json' with { type: 'json' };

export default tseslint.config(
  { ignores: ['**/node_modules/**', 'dist/**', '**/generated/**', 'var/**', 'apps/web/dist/**', '.nx/**'] },
  {
    files: ['apps/**/*.ts', 'libs/**/*.ts', 'tools/**/*.ts', 'deploy/**/*.ts', 'bench/**/*.ts'],
    ignores: pending.moduleBoundaries,
    languageOptions: { parser: tseslint.parser },
    // typescript-eslint's plugin is registered for the directives in the code that name its rules.
    plugins: { '@nx': nx, '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib'] },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/*/src/**/*.ts'],
    ignores: ['apps/*/src/data/**', '**/*.spec.ts', ...pending.databaseClients],
    rules: { 'no-restricted-imports': ['error', DATABASE_CLIENTS] },
  },
);
