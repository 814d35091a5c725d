/**
 * The CLI's build: src/core/cli.ts bundled to out/cli/quire.js, with every `*.worker.ts` and
 * `*.child.ts` entry the core starts emitted beside it as `<name>.js`, where common/entryPoints.ts
 * looks for them. Every dependency stays in node_modules: native modules cannot be bundled, and each
 * command's code is its own chunk, so `quire --help` loads neither LanceDB nor ONNX nor llama.cpp.
 *
 * `node packages/cli/build.mjs` builds it afresh (`prepare` does at install); quire.mjs rebuilds it
 * when a source it was built from changed since.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const outDir = join(root, 'out', 'cli');
const bundle = join(outDir, 'quire.js');
// The build's inputs and when it started: a later change to any of them makes the build stale.
const stampFile = join(outDir, 'inputs.json');

/** Every worker-thread and child-process entry in core, by output name (as electron.vite.config.ts). */
function processEntries(dir) {
  const entries = {};
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.(worker|child)\.ts$/.test(entry.name)) {
      entries[basename(entry.name, '.ts')] = join(entry.parentPath, entry.name);
    }
  }
  return entries;
}

const FILE_URL = /new URL\(\s*(['"])(\.{1,2}\/[^'"]*)\1\s*,\s*import\.meta\.url\s*\)/g;

/**
 * `new URL('../../../out/renderer', import.meta.url)` names a file relative to its source module;
 * bundled, import.meta.url is the chunk in out/cli, so the path is rewritten to name the same file
 * from there.
 */
const rebaseFileUrls = {
  name: 'rebase-file-urls',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const contents = source.replace(FILE_URL, (_match, _quote, path) => {
        let rebased = relative(outDir, resolve(dirname(args.path), path))
          .split(sep)
          .join('/');
        if (!rebased.startsWith('.')) rebased = `./${rebased}`;
        if (path.endsWith('/') && !rebased.endsWith('/')) rebased += '/';
        return `new URL(${JSON.stringify(rebased)}, import.meta.url)`;
      });
      return { contents, loader: 'ts' };
    });
  },
};

/** Writes beside the target and renames: a `quire` starting meanwhile never reads half a file. */
function writeWhole(path, contents) {
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, contents);
  renameSync(partial, path);
}

/**
 * Builds out/cli. `fresh` empties it first (an explicit build); a rebuild from quire.mjs leaves the
 * old chunks for any `quire` still running from them.
 */
export async function buildCli({ fresh = false, quiet = false } = {}) {
  const startedAt = Date.now();
  const esbuild = await import('esbuild');
  try {
    const result = await esbuild.build({
      absWorkingDir: root,
      entryPoints: {
        quire: join(root, 'src', 'core', 'cli.ts'),
        ...processEntries(join(root, 'src', 'core')),
      },
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node24',
      packages: 'external',
      outdir: outDir,
      entryNames: '[name]',
      chunkNames: 'chunk-[hash]',
      write: false,
      metafile: true,
      logLevel: quiet ? 'silent' : 'warning',
      plugins: [rebaseFileUrls],
    });
    if (fresh) rmSync(outDir, { recursive: true, force: true });
    mkdirSync(outDir, { recursive: true });
    // Chunks first, then the entries that import them.
    const entryPaths = new Set(
      Object.entries(result.metafile.outputs)
        .filter(([, output]) => output.entryPoint)
        .map(([path]) => resolve(root, path)),
    );
    const files = [...result.outputFiles].sort(
      (a, b) => Number(entryPaths.has(a.path)) - Number(entryPaths.has(b.path)),
    );
    for (const file of files) writeWhole(file.path, file.contents);
    writeWhole(stampFile, JSON.stringify({ startedAt, inputs: Object.keys(result.metafile.inputs) }));
    return { files: files.length, ms: Date.now() - startedAt };
  } finally {
    // esbuild's service process would otherwise live as long as this one (all of `quire serve`).
    await esbuild.stop();
  }
}

/** Whether out/cli was built from the sources as they are now. */
export function cliBuildIsCurrent() {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
    statSync(bundle);
  } catch {
    return false;
  }
  return stamp.inputs.every((input) => {
    try {
      return statSync(join(root, input)).mtimeMs < stamp.startedAt;
    } catch {
      return false;
    }
  });
}

/** esbuild's first error with its place (`src/x.ts:3: Unexpected ";"`), or the error's first line. */
function firstProblem(error) {
  const first = error?.errors?.[0];
  if (first?.location) return `${first.location.file}:${first.location.line}: ${first.text}`;
  return (error instanceof Error ? error.message : String(error)).split('\n')[0];
}

/**
 * The module to run for `quire`: the build, rebuilt first when a source changed since (a developer
 * editing src); the source through tsx, with one line saying so, when that rebuild fails.
 */
export async function cliEntry() {
  if (cliBuildIsCurrent()) return pathToFileURL(bundle).href;
  try {
    await buildCli({ quiet: true });
    return pathToFileURL(bundle).href;
  } catch (error) {
    const reason = firstProblem(error);
    process.stderr.write(
      `quire: rebuilding the CLI failed (${reason}); running it from source, slowly. ` +
        '`node packages/cli/build.mjs` says why.\n',
    );
    const { register } = await import('tsx/esm/api');
    register();
    return new URL('../../src/core/cli.ts', import.meta.url).href;
  }
}

if (import.meta.main) {
  const { files, ms } = await buildCli({ fresh: true });
  console.log(`CLI built: ${files} files in ${relative(root, outDir)} (${ms} ms)`);
}
