/*
 * What the packaged app takes from node_modules, as data. electron-builder.yml extends this file, and
 * `npm run check:package` checks the packaging against the same rows.
 *
 * One row per package whose native code or data files are opened by path at run time: code inside
 * app.asar can be required, but a native addon, a dylib, a wasm file read with fs or a font folder
 * handed to pdfjs must be a real file, so those ship unpacked beside the archive. A new native
 * module is one more row.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface RuntimeModule {
  /** The npm name. */
  package: string;
  /** Globs inside the package that are opened by path and so ship unpacked; the whole package if absent. */
  readByPath?: string[];
  /**
   * Its native builds come as optional dependencies, one package per platform (npm installs only the
   * host's); the lockfile must hold one for every target.
   */
  platformPackages?: true;
  /** The targets it has builds for, when not all (an OS service other platforms lack); all if absent. */
  onlyOn?: NodeJS.Platform[];
  /**
   * For a package that carries every platform's binaries itself: the folder of one platform's, with
   * `${platform}` and `${arch}` (electron-builder's macros, Node's names). Other platforms' folders are
   * left out of the package.
   */
  platformDir?: string;
  /** What reads it, in a few words. */
  why: string;
}

export const runtimeModules: RuntimeModule[] = [
  { package: '@lancedb/lancedb', platformPackages: true, why: 'the index: a Rust addon' },
  { package: 'sharp', platformPackages: true, why: 'page images: a libvips addon and libvips itself' },
  {
    package: '@napi-rs/canvas',
    platformPackages: true,
    why: 'Skia: pdfjs draws PDF pages on it, Quire draws the pages it lays out',
  },
  { package: 'node-llama-cpp', platformPackages: true, why: 'in-process models; reads llama/*.json by path' },
  {
    package: '@fugood/llama.node',
    platformPackages: true,
    why: 'the in-process vision model: llama.cpp with image input, an addon run in its own host process',
  },
  {
    package: 'koffi',
    platformPackages: true,
    why: "Linux: tunes the C allocator and hands freed memory back when idle (glibc's mallopt, malloc_trim)",
  },
  { package: '@reflink/reflink', platformPackages: true, why: 'copy-on-write in node-llama-cpp downloads' },
  {
    package: '@napi-rs/system-ocr',
    platformPackages: true,
    onlyOn: ['darwin', 'win32'],
    why: "OCR with the OS's engine (macOS Vision, Windows.Media.Ocr): an addon; Linux has none",
  },
  { package: '@embedpdf/pdfium', readByPath: ['dist/pdfium.wasm'], why: 'PDFium wasm, read with fs' },
  {
    package: 'onnxruntime-node',
    platformDir: 'bin/napi-v6/${platform}/${arch}',
    why: 'the page embedder: the ONNX Runtime addon and library, every platform inside one package',
  },
  {
    package: 'tesseract.js-core',
    readByPath: ['*.wasm'],
    why: 'OCR: Tesseract compiled to wasm, read with fs by its loader',
  },
  ...['eng', 'osd', 'fra', 'deu', 'spa'].map((language) => ({
    package: `@tesseract.js-data/${language}`,
    why: 'OCR language data: Tesseract workers are given its folder as their langPath',
  })),
  {
    package: 'pdfjs-dist',
    readByPath: ['standard_fonts/**', 'cmaps/**', 'wasm/**'],
    why: 'pdfjs is handed these folders as paths',
  },
];

/**
 * node_modules paths no target needs at run time: the packaged app runs the bundle in out/, never
 * TypeScript, and draws with pdfjs's legacy build only.
 */
export const notShipped = [
  'tsx', // runs the TypeScript sources: the CLI and tests only
  'esbuild', // tsx's compiler
  '@esbuild/*',
  'typescript', // a peer of node-llama-cpp, for typing its APIs
  '@types/*',
  'node-llama-cpp/llama/gitRelease.bundle', // llama.cpp sources for local builds; Quire never builds
  'pdfjs-dist/{build,web,image_decoders,types}', // the modern build, viewer and typings
  'pdfjs-dist/legacy/{web,image_decoders}',
];

export interface Target {
  platform: NodeJS.Platform;
  arch: string;
  libc?: 'glibc' | 'musl';
}

/** The platforms installers are built for, in the names npm's `os`/`cpu`/`libc` fields use. */
export const targets: Target[] = [
  { platform: 'darwin', arch: 'arm64' },
  { platform: 'linux', arch: 'x64', libc: 'glibc' },
  { platform: 'win32', arch: 'x64' },
];

export interface LockEntry {
  version?: string;
  integrity?: string;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  engines?: Record<string, string> | string[];
  dev?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  optionalDependencies?: Record<string, string>;
}

export type LockPackages = Record<string, LockEntry>;

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** The lockfile's `packages` map. */
export function readLockPackages(root = projectRoot): LockPackages {
  return (JSON.parse(readFileSync(`${root}/package-lock.json`, 'utf8')) as { packages: LockPackages })
    .packages;
}

/**
 * The packages holding one platform's build of `name`, from the lockfile: optional dependencies that
 * name an `os` or `cpu`, followed down (sharp -> @img/sharp-darwin-arm64 -> @img/sharp-libvips-darwin-arm64).
 */
export function platformPackagesOf(name: string, lock: LockPackages): Map<string, LockEntry> {
  const found = new Map<string, LockEntry>();
  const visit = (packageName: string) => {
    for (const dependency of Object.keys(lock[`node_modules/${packageName}`]?.optionalDependencies ?? {})) {
      const entry = lock[`node_modules/${dependency}`];
      if (!entry || (!entry.os && !entry.cpu) || found.has(dependency)) continue;
      found.set(dependency, entry);
      visit(dependency);
    }
  };
  visit(name);
  return found;
}

/** Whether npm would install this package on `target` (its `os`, `cpu` and `libc` allow it). */
export function servesTarget(entry: LockEntry, target: Target): boolean {
  const allows = (list: string[] | undefined, value: string) => {
    if (!list) return true;
    if (list.includes(`!${value}`)) return false;
    const named = list.filter((item) => !item.startsWith('!'));
    return named.length === 0 || named.includes(value);
  };
  return (
    allows(entry.os, target.platform) &&
    allows(entry.cpu, target.arch) &&
    (!target.libc || allows(entry.libc, target.libc))
  );
}

/** asarUnpack and `files` rules for electron-builder, derived from the rows above. */
export function packagingRules(
  lock: LockPackages = readLockPackages(),
  modules: RuntimeModule[] = runtimeModules,
): { asarUnpack: string[]; files: string[] } {
  const asarUnpack: string[] = [];
  const files: string[] = [];
  for (const row of modules) {
    for (const glob of row.readByPath ?? ['**']) asarUnpack.push(`node_modules/${row.package}/${glob}`);
    for (const [platformPackage, entry] of platformPackagesOf(row.package, lock)) {
      if (targets.some((target) => servesTarget(entry, target))) {
        asarUnpack.push(`node_modules/${platformPackage}/**`);
      }
    }
    if (row.platformDir) files.push(...otherPlatformsExcluded(row.package, row.platformDir));
  }
  for (const path of notShipped) files.push(`!node_modules/${path}{,/**}`);
  return { asarUnpack, files };
}

/** `bin/${platform}/${arch}` -> exclusions of every sibling of the target's platform and arch folders. */
function otherPlatformsExcluded(packageName: string, platformDir: string): string[] {
  const [before = '', after = ''] = platformDir.split('${platform}');
  const rules = [`!node_modules/${packageName}/${before}!(\${platform})/**`];
  const archAt = after.indexOf('${arch}');
  if (archAt >= 0) {
    rules.push(`!node_modules/${packageName}/${before}\${platform}${after.slice(0, archAt)}!(\${arch})/**`);
  }
  return rules;
}

/** The part of electron-builder's configuration these rows make (electron-builder calls it when loading). */
export default () => packagingRules();
