import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { servesTarget, targets, type LockPackages } from '../../build/runtimeModules';

/**
 * Problems with the one Node the project names: `engines` must lie inside every installed package's
 * own `engines.node` (else npm prints EBADENGINE), `.nvmrc` must satisfy it, every workflow that sets
 * up Node must read `.nvmrc`, and the README must name the same major version.
 */
export function nodeVersionProblems(root: string, lock: LockPackages): string[] {
  const problems: string[] = [];
  const ownRange = lock['']?.engines && !Array.isArray(lock[''].engines) ? lock[''].engines.node : undefined;
  if (!ownRange || !semver.validRange(ownRange)) return ['package.json has no valid engines.node'];

  for (const [path, entry] of Object.entries(lock)) {
    if (!path.startsWith('node_modules/')) continue;
    // A platform package for a platform no one builds on is never installed.
    if ((entry.os || entry.cpu) && !targets.some((target) => servesTarget(entry, target))) continue;
    const range = entry.engines && !Array.isArray(entry.engines) ? entry.engines.node : undefined;
    if (!range || !semver.validRange(range)) continue;
    if (!semver.subset(ownRange, range)) {
      problems.push(
        `engines.node ${ownRange} is not inside ${path.slice('node_modules/'.length)}'s ${range}`,
      );
    }
  }

  const nvmrc = readFileSync(join(root, '.nvmrc'), 'utf8').trim();
  if (!semver.valid(nvmrc)) problems.push(`.nvmrc holds "${nvmrc}", not an exact version`);
  else if (!semver.satisfies(nvmrc, ownRange))
    problems.push(`.nvmrc ${nvmrc} does not satisfy engines.node ${ownRange}`);

  const major = semver.minVersion(ownRange)?.major;
  if (!new RegExp(`Node\\.js ${major}\\b`).test(readFileSync(join(root, 'README.md'), 'utf8'))) {
    problems.push(`README.md does not name Node.js ${major} in its prerequisites`);
  }

  const workflows = join(root, '.github', 'workflows');
  for (const name of existsSync(workflows) ? readdirSync(workflows) : []) {
    const text = readFileSync(join(workflows, name), 'utf8');
    for (const step of text.split(/\n\s*- /).filter((s) => s.includes('actions/setup-node'))) {
      if (!/node-version-file:\s*(\S+\/)?\.nvmrc\s/.test(step)) {
        problems.push(`.github/workflows/${name}: a setup-node step does not read .nvmrc`);
      }
    }
  }
  return problems;
}
