/**
 * `npm run check:package`: what can be known about the installers without an Electron binary.
 * electron-builder.yml against electron-builder's own schema; the lockfile holds every target's build
 * of every native module; every file read by path ships unpacked; one Node everywhere; fuses,
 * entitlements and usage strings; actionlint over the CI workflow. One line per check, then exit 1
 * if any found a problem.
 */
import { fileURLToPath } from 'node:url';
import type { Configuration } from 'app-builder-lib';
import { readLockPackages, runtimeModules, targets } from '../build/runtimeModules';
import { builderVersion, loadBuilderConfig } from './package/builderConfig';
import { hardeningProblems } from './package/hardening';
import { nodeVersionProblems } from './package/nodeVersion';
import {
  filesReadByPath,
  nativeFilesInstalled,
  platformBuildProblems,
  targetName,
  unpackProblems,
} from './package/runtimeFiles';
import { workflowProblems } from './package/workflowLint';

const root = fileURLToPath(new URL('..', import.meta.url));
let failed = false;

function report(label: string, problems: string[], summary: string): void {
  if (problems.length === 0) {
    console.log(`ok    ${label}: ${summary}`);
    return;
  }
  failed = true;
  console.log(`FAIL  ${label}:`);
  for (const problem of problems) console.log(`      - ${problem}`);
}

const lock = readLockPackages(root);
const { config, problems: configProblems } = await loadBuilderConfig(root, 'electron-builder.yml');
report('electron-builder.yml', configProblems, `valid against electron-builder ${builderVersion()}'s schema`);
const testBuild = await loadBuilderConfig(root, 'electron-builder.e2e.yml');
const inspectorOnly = testBuild.config ? testBuildDifferences(config, testBuild.config) : [];
report(
  'electron-builder.e2e.yml',
  [...testBuild.problems, ...inspectorOnly],
  'valid, and the release build but for the inspector fuse',
);

report(
  'lockfile',
  platformBuildProblems(root, runtimeModules, lock),
  `${targets.map(targetName).join(', ')} builds of every native module`,
);

if (config) {
  const patterns = { asarUnpack: (config.asarUnpack as string[]) ?? [], files: filePatterns(config.files) };
  const readByPath = filesReadByPath(root, runtimeModules, lock).length;
  const native = nativeFilesInstalled(root, lock).length;
  report(
    'unpacked',
    unpackProblems(root, runtimeModules, lock, patterns),
    `${readByPath} files read by path and ${native} native files installed here are unpacked or left out`,
  );
  report('hardening', hardeningProblems(root, config), 'fuses, entitlements and usage strings as required');
}

report('node', nodeVersionProblems(root, lock), 'engines, .nvmrc, README and workflows name one Node');

const workflows = await workflowProblems(root);
report('actionlint', workflows.problems, `${workflows.files.join(', ')} clean`);

process.exit(failed ? 1 : 0);

/** The packaged-app test must test the release build: only the output folder and the inspector fuse may differ. */
function testBuildDifferences(release: Configuration | null, test: Configuration): string[] {
  if (!release) return [];
  const comparable = (c: Configuration) =>
    JSON.stringify({
      ...c,
      extends: null,
      directories: { ...c.directories, output: null },
      electronFuses: { ...c.electronFuses, enableNodeCliInspectArguments: null },
    });
  const problems =
    comparable(release) === comparable(test)
      ? []
      : ['differs from electron-builder.yml beyond the inspector fuse'];
  if (test.electronFuses?.enableNodeCliInspectArguments !== true)
    problems.push('does not turn the inspector fuse on');
  return problems;
}

/** electron-builder keeps `files` as file sets after merging; the patterns are their filters. */
function filePatterns(files: unknown): string[] {
  if (!Array.isArray(files)) return [];
  return files.flatMap((item: unknown) =>
    typeof item === 'string' ? [item] : ((item as { filter?: string[] }).filter ?? []),
  );
}
