import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { minimatch } from 'minimatch';
import {
  platformPackagesOf,
  servesTarget,
  targets as defaultTargets,
  type LockPackages,
  type RuntimeModule,
  type Target,
} from '../../build/runtimeModules';

/** What electron-builder's `asarUnpack` and `files` say, with macros expanded for the host. */
export interface PackagingPatterns {
  asarUnpack: string[];
  files: string[];
}

/** Files the OS loader or the app open by path: they cannot live inside app.asar. */
const NATIVE_FILE = /\.(node|dylib|so(\.\d+)*|dll|exe|wasm|metallib)$/;

function expandMacros(pattern: string): string {
  return pattern.replaceAll('${platform}', process.platform).replaceAll('${arch}', process.arch);
}

function matchesAny(path: string, patterns: string[]): boolean {
  return patterns.some((pattern) => minimatch(path, expandMacros(pattern), { dot: true }));
}

/** True when `path` (relative to the app folder) is left out by a `!` rule of `files`. */
function isExcluded(path: string, patterns: PackagingPatterns): boolean {
  const negations = patterns.files.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
  return matchesAny(path, negations);
}

/** A cache of folder listings: node_modules does not change while the checks run. */
const listings = new Map<string, string[]>();

function listFiles(dir: string): string[] {
  let files = listings.get(dir);
  if (!files) {
    files = existsSync(dir)
      ? readdirSync(dir, { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => join(entry.parentPath, entry.name))
      : [];
    listings.set(dir, files);
  }
  return files;
}

/** Installed files of one package, relative to `root` (node_modules/<name>/...), its own node_modules aside. */
function packageFiles(root: string, name: string): string[] {
  const dir = join(root, 'node_modules', name);
  return listFiles(dir)
    .map((file) => relative(root, file).split('\\').join('/'))
    .filter((file) => !file.slice(`node_modules/${name}/`.length).includes('node_modules/'));
}

/**
 * The files of the runtime modules that are opened by path, as installed on this machine (so this
 * platform's builds), relative to the project root: every native file of a module and its platform
 * packages, and the data files a row declares in `readByPath`.
 */
export function filesReadByPath(root: string, modules: RuntimeModule[], lock: LockPackages): string[] {
  const files: string[] = [];
  for (const row of modules) {
    const own = packageFiles(root, row.package);
    const declared = (row.readByPath ?? []).map((glob) => `node_modules/${row.package}/${glob}`);
    files.push(...own.filter((file) => NATIVE_FILE.test(file) || matchesAny(file, declared)));
    for (const platformPackage of platformPackagesOf(row.package, lock).keys()) {
      files.push(...packageFiles(root, platformPackage).filter((file) => NATIVE_FILE.test(file)));
    }
  }
  return [...new Set(files)].sort();
}

/** Every installed production file that looks native (addon, shared library, executable, wasm). */
export function nativeFilesInstalled(root: string, lock: LockPackages): string[] {
  const files: string[] = [];
  for (const [lockPath, entry] of Object.entries(lock)) {
    if (!lockPath.startsWith('node_modules/') || entry.dev) continue;
    const dir = join(root, lockPath);
    for (const file of listFiles(dir)) {
      const path = relative(root, file).split('\\').join('/');
      // Files of nested packages are listed under their own lock entry.
      if (path.slice(lockPath.length + 1).includes('node_modules/')) continue;
      if (NATIVE_FILE.test(path)) files.push(path);
    }
  }
  return [...new Set(files)].sort();
}

/** Files the core resolves by package path (`createRequire(...).resolve('pkg/file.wasm')`) that are not JavaScript. */
export function resolvedDataFiles(root: string, sourceDir = join(root, 'src')): string[] {
  const specifiers = new Set<string>();
  for (const file of listFiles(sourceDir)) {
    if (!/\.tsx?$/.test(file)) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(/\.resolve\(\s*'([^']+)'\s*\)/g)) {
      if (match[1] && !/\.(c|m)?js$|\.json$/.test(match[1]) && match[1].includes('/'))
        specifiers.add(match[1]);
    }
  }
  return [...specifiers].sort();
}

/**
 * Problems with what ships unpacked: a file read by path that would stay inside app.asar, a native
 * file that is neither unpacked nor left out, a runtime module that is not installed.
 */
export function unpackProblems(
  root: string,
  modules: RuntimeModule[],
  lock: LockPackages,
  patterns: PackagingPatterns,
): string[] {
  const problems: string[] = [];
  for (const row of modules) {
    if (!lock[`node_modules/${row.package}`]) {
      problems.push(`${row.package} is listed in build/runtimeModules.ts but is not in package-lock.json`);
    }
  }
  for (const file of filesReadByPath(root, modules, lock)) {
    if (isExcluded(file, patterns)) continue;
    if (!matchesAny(file, patterns.asarUnpack))
      problems.push(`${file} is read by path but packed inside app.asar`);
  }
  for (const file of nativeFilesInstalled(root, lock)) {
    if (isExcluded(file, patterns) || matchesAny(file, patterns.asarUnpack)) continue;
    problems.push(
      `${file} is native but neither unpacked nor left out: add its package to build/runtimeModules.ts`,
    );
  }
  const resolveFromRoot = createRequire(join(root, 'package.json')).resolve;
  for (const specifier of resolvedDataFiles(root)) {
    const file = relative(root, resolveFromRoot(specifier)).split('\\').join('/');
    if (!matchesAny(file, patterns.asarUnpack)) {
      problems.push(`src resolves ${specifier} (${file}) by path, but it is not unpacked`);
    }
  }
  return problems;
}

/**
 * Problems with the lockfile: a native runtime module without a build for one of the targets, so that
 * `npm ci` on that platform would install nothing to load.
 */
export function platformBuildProblems(
  root: string,
  modules: RuntimeModule[],
  lock: LockPackages,
  targets: Target[] = defaultTargets,
): string[] {
  const problems: string[] = [];
  for (const row of modules) {
    if (row.platformPackages) {
      const builds = [...platformPackagesOf(row.package, lock)];
      for (const target of targets.filter((t) => !row.onlyOn || row.onlyOn.includes(t.platform))) {
        const serving = builds.filter(([, entry]) => servesTarget(entry, target));
        if (serving.length === 0) {
          problems.push(`package-lock.json has no ${targetName(target)} build of ${row.package}`);
        }
        for (const [name, entry] of serving) {
          if (!entry.integrity) problems.push(`package-lock.json has no integrity for ${name}`);
        }
      }
    }
    if (row.platformDir) {
      for (const target of targets) {
        const dir = row.platformDir
          .replaceAll('${platform}', target.platform)
          .replaceAll('${arch}', target.arch);
        const found = listFiles(join(root, 'node_modules', row.package)).some((file) =>
          minimatch(
            relative(join(root, 'node_modules', row.package), file)
              .split('\\')
              .join('/'),
            `${dir}/**`,
          ),
        );
        if (!found) problems.push(`${row.package} has no ${targetName(target)} binaries under ${dir}`);
      }
    }
  }
  return problems;
}

export function targetName(target: Target): string {
  return `${target.platform}-${target.arch}`;
}
