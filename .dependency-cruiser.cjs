/**
 * The import rules of DESIGN.md that ESLint's per-file rules cannot see: cycles (type imports
 * included) and the direction between core's own folders. Run by `npm run lint`.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'Modules that import each other (even for types only) cannot be understood or changed alone.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'readers-and-index-stay-below-models-and-agent',
      severity: 'error',
      comment: 'documents/ and index/ are used by models/ and agent/ through ports, never the other way.',
      from: { path: '^src/core/(documents|index)/' },
      to: { path: '^src/core/(agent|models)/' },
    },
    {
      name: 'models-never-import-index',
      severity: 'error',
      comment: 'The models layer knows nothing of how content is stored.',
      from: { path: '^src/core/models/' },
      to: { path: '^src/core/index/' },
    },
    {
      name: 'memory-stays-below-models',
      severity: 'error',
      comment: 'The memory budget only counts; the models layer tells it what each provider holds.',
      from: { path: '^src/core/memory/' },
      to: { path: '^src/core/(models|agent|retrieval|ingestion|library)/' },
    },
    {
      name: 'main-reaches-core-through-its-entry',
      severity: 'error',
      comment: 'The Electron shell uses core through src/core/desktop.ts only.',
      from: { path: '^src/main/' },
      to: { path: '^src/core/', pathNot: '^src/core/desktop\\.ts$' },
    },
    {
      name: 'layers',
      severity: 'error',
      comment: 'shared <- core <- main; renderer and preload reach only shared.',
      from: { path: '^src/(shared|core|renderer|preload)/' },
      to: {
        path: '^src/(main|renderer|preload)/',
        pathNot: '^src/(renderer|preload)/',
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(out|dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.node.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
