/**
 * The import rules of the two packages (docs/architecture.md, "Layers and imports"), checked by
 * dependency-cruiser in `npm test` (`npm run lint:imports`). Each rule names the arrow it forbids.
 */

/**
 * The library's layers, lowest first: a layer imports its own and lower layers, never a higher one (`ssr`, the
 * server renderer, renders the elements: it sits on top).
 */
const LIBRARY_LAYERS = ['client', 'store', 'insights', 'controllers', 'elements', 'ssr'];

const upwardRules = LIBRARY_LAYERS.slice(0, -1).map((layer, i) => ({
  name: `library-${layer}-not-upward`,
  comment: `src/${layer} may not import a higher layer (${LIBRARY_LAYERS.slice(i + 1).join(', ')})`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: { path: `^src/(${LIBRARY_LAYERS.slice(i + 1).join('|')})/` },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle at run time, anywhere',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'no-circular-types',
      comment:
        "No cycle of type imports either, but inside the engine (a class and its helpers name each other's types there: index-state, derive, orders, warm-up)",
      severity: 'error',
      from: { pathNot: '^src/engine/' },
      to: { circular: true },
    },
    ...upwardRules,
    {
      name: 'library-wire-is-the-bottom',
      comment: 'src/protocol (the wire shared with the service) imports nothing of the library',
      severity: 'error',
      from: { path: '^src/protocol/' },
      to: { path: '^src/', pathNot: '^src/protocol/' },
    },
    {
      name: 'library-never-imports-service',
      comment: 'The browser library never imports the service package (Node only)',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^service/' },
    },
    {
      name: 'service-imports-only-the-protocol',
      comment: 'The service imports nothing of the library but svc-search/protocol and svc-search/engine',
      severity: 'error',
      from: { path: '^service/src/' },
      to: { path: '^src/', pathNot: '^src/(protocol|engine)/' },
    },
    {
      name: 'library-engine-only-for-local-search',
      comment:
        'In the library only src/local (the worker and its client) imports the engine, so no other page loads it',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(engine|local)/' },
      to: { path: '^src/engine/' },
    },
    {
      name: 'domain-never-imports-http',
      comment: 'Only http/ and the entry points (index.ts, cli.ts) import http/: the domain knows no HTTP',
      severity: 'error',
      from: { path: '^service/src/', pathNot: '^service/src/(http/|index\\.ts$|cli\\.ts$)' },
      to: { path: '^service/src/http/' },
    },
    {
      name: 'http-never-imports-storage-implementations',
      comment: 'Routers call the domain; storage is reached through the services object',
      severity: 'error',
      from: { path: '^service/src/http/' },
      to: { path: '^service/src/storage/(?!types\\.ts$)' },
    },
    {
      name: 'storage-implementations-only-via-types',
      comment:
        'Storage implementations (storage/<backend>/) are built by createService (index.ts) and reached only through the storage/types.ts interfaces',
      severity: 'error',
      from: { path: '^service/src/', pathNot: '^service/src/(storage/|index\\.ts$)' },
      to: { path: '^service/src/storage/[^/]+/' },
    },
    {
      name: 'storage-knows-no-domain',
      comment: 'Storage implementations import the interfaces and their own backend, not the domain or HTTP',
      severity: 'error',
      from: { path: '^service/src/storage/' },
      to: { path: '^service/src/', pathNot: '^service/src/(storage/|engine/|errors\\.ts$)' },
    },
    {
      name: 'storage-uses-engine-types-only',
      comment: 'Storage keeps what the engine defines (synonyms, dictionary entries): their types, never its code',
      severity: 'error',
      from: { path: '^service/src/storage/' },
      to: { path: '^service/src/engine/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'engine-is-a-library',
      comment:
        'The engine (src/engine, svc-search/engine) knows neither HTTP, nor storage, nor the domain, nor the DOM layers: its own modules and the protocol only',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { path: '^(service/src/|src/)', pathNot: '^src/(engine|protocol)/' },
    },
    {
      name: 'service-engine-is-a-re-export',
      comment: "service/src/engine re-exports the library's engine and imports nothing else",
      severity: 'error',
      from: { path: '^service/src/engine/' },
      to: { path: '^(service/src/|src/)', pathNot: '^(service/src/engine/|src/engine/)' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|storybook-static)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'types', 'default'],
      extensions: ['.ts', '.js', '.mjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
