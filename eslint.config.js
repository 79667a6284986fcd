import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/**
 * The layering rule of docs/architecture.md, as import boundaries: each zone forbids `target` to import
 * from `from`. Lower layers never import higher ones; services meet only through ports server.ts wires.
 */
const SERVICES = ['auth', 'fhir', 'plans', 'prices', 'portal'];
const ABOVE_SERVICES = ['src/ingest', 'src/commands', 'src/ops', 'src/server.ts', 'src/main.ts'];

/** Everything of service `s` but its routes/ and app.ts (which registers them). */
function belowRoutes(s) {
  return readdirSync(`${import.meta.dirname}/src/${s}`)
    .filter((name) => name !== 'routes' && name !== 'app.ts')
    .map((name) => `src/${s}/${name}`);
}

const zones = [
  // shared/ is the kernel: it knows no other folder of the project (config.ts only as a type, never).
  {
    target: 'src/shared',
    from: ['src/storage', ...SERVICES.map((s) => `src/${s}`), ...ABOVE_SERVICES, 'src/config.ts'],
    message: 'shared/ is the kernel and mentions no service, storage or command.',
  },
  // storage/ sits on shared/ only.
  {
    target: 'src/storage',
    from: [...SERVICES.map((s) => `src/${s}`), ...ABOVE_SERVICES],
    message: 'storage/ imports only shared/.',
  },
  // A service imports no other service, nor anything above the services.
  ...SERVICES.map((s) => ({
    target: `src/${s}`,
    from: [...SERVICES.filter((o) => o !== s).map((o) => `src/${o}`), ...ABOVE_SERVICES],
    message: 'services meet through ports that server.ts wires, and never import ingest, commands or ops.',
  })),
  // Within a service, nothing below its routes imports them (app.ts registers them).
  ...SERVICES.map((s) => ({
    target: belowRoutes(s),
    from: `src/${s}/routes`,
    message: 'only app.ts and other routes import routes/: the domain never calls back up.',
  })),
  // Stores import only storage/, shared/ and their own store's types.
  ...SERVICES.map((s) => ({
    target: `src/${s}/store`,
    from: `src/${s}`,
    except: ['./store', './tables'],
    message: "store/ imports only storage/, shared/ and its service's static tables/.",
  })),
  // The plan API's pure rules: pricing/ and eligibility/ do no I/O.
  {
    target: ['src/plans/pricing', 'src/plans/eligibility'],
    from: ['src/storage', 'src/plans/store', 'src/plans/routes', 'src/plans/quote', 'src/plans/search'],
    message: 'pricing/ and eligibility/ are pure functions below the quote and the search.',
  },
  // The OAuth protocol does not depend on the enrollee side, the pages or the IdP sign-in.
  {
    target: 'src/auth/oauth',
    from: ['src/auth/consent', 'src/auth/pages', 'src/auth/federation', 'src/auth/sandbox'],
    message: 'auth/oauth/ is the protocol: consent, pages and federation build on it, not the reverse.',
  },
  // The loaders write the services' tables but never reach their HTTP side.
  {
    target: 'src/ingest',
    from: [
      ...SERVICES.flatMap((s) => [`src/${s}/routes`, `src/${s}/app.ts`]),
      'src/commands',
      'src/ops',
      'src/server.ts',
    ],
    message: 'ingest/ may use a service domain and tables, never its routes or app, nor the commands.',
  },
];

/** True when `node` (a reported import source) belongs to an `import type` / `export type` declaration. */
function typeOnly(node) {
  const declaration = node?.parent;
  if (!declaration) return false;
  if (declaration.importKind === 'type' || declaration.exportKind === 'type') return true;
  const specifiers = declaration.specifiers ?? [];
  return specifiers.length > 0 && specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type');
}

/**
 * import-x's `no-restricted-paths`, blind to type-only imports: a type is erased at compile time, so a
 * domain may name its store's row types and a store its domain's value types without depending on them.
 */
const layers = {
  rules: {
    boundaries: {
      meta: importX.rules['no-restricted-paths'].meta,
      create(context) {
        const filtered = Object.create(context, {
          report: {
            value: (descriptor) => (typeOnly(descriptor.node) ? undefined : context.report(descriptor)),
          },
        });
        return importX.rules['no-restricted-paths'].create(filtered);
      },
    },
  },
};

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'bin/', 'dist/', '.dist-*/', '.scratch/', '.bench-tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // Plain Node scripts run by npm (check-citations).
    files: ['scripts/**/*.mjs'],
    languageOptions: { globals: { console: 'readonly', process: 'readonly' } },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX, layers },
    settings: {
      ...Object.fromEntries(
        Object.entries(importX.flatConfigs.typescript.settings).filter(([k]) => k !== 'import-x/resolver'),
      ),
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      // No run-time cycle (type-only imports are erased and cannot form one).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'layers/boundaries': ['error', { zones, basePath: import.meta.dirname }],
    },
  },
);
