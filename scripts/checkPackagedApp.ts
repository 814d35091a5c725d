/**
 * `npm run check:packaged -- <packed app> [--signed=true|false]`: checks a build electron-builder
 * made, on the machine that made it (the installers workflow), and measures it. The fuses in the
 * binary, every file read by path present in app.asar.unpacked, nothing left out present in the
 * archive, the usage strings and asar integrity hash in Info.plist, the signature when signing was
 * asked for. Writes dist/package-report.json with the sizes of the app and the installers.
 *
 * <packed app> is Quire.app on macOS, the linux-unpacked or win-unpacked folder elsewhere.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listPackage } from '@electron/asar';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { minimatch } from 'minimatch';
import { notShipped, readLockPackages, runtimeModules } from '../build/runtimeModules';
import { requiredFuses, requiredUsageStrings } from './package/hardening';
import { filesReadByPath } from './package/runtimeFiles';

const root = fileURLToPath(new URL('..', import.meta.url));
const [packed, ...flags] = process.argv.slice(2);
if (!packed) {
  console.error(
    'Usage: npm run check:packaged -- <Quire.app | linux-unpacked | win-unpacked> [--signed=true]',
  );
  process.exit(2);
}
const signed = flags.includes('--signed=true');
const appPath = join(root, packed);
const isMac = appPath.endsWith('.app');
const resources = isMac ? join(appPath, 'Contents', 'Resources') : join(appPath, 'resources');
const executable = isMac ? appPath : join(appPath, process.platform === 'win32' ? 'Quire.exe' : 'quire');

const problems: string[] = [];

const fuseIndex: Record<keyof typeof requiredFuses, FuseV1Options> = {
  runAsNode: FuseV1Options.RunAsNode,
  enableCookieEncryption: FuseV1Options.EnableCookieEncryption,
  enableNodeOptionsEnvironmentVariable: FuseV1Options.EnableNodeOptionsEnvironmentVariable,
  enableNodeCliInspectArguments: FuseV1Options.EnableNodeCliInspectArguments,
  enableEmbeddedAsarIntegrityValidation: FuseV1Options.EnableEmbeddedAsarIntegrityValidation,
  onlyLoadAppFromAsar: FuseV1Options.OnlyLoadAppFromAsar,
};
// The wire holds one ASCII byte per fuse: '1' on, '0' off.
const [DISABLED, ENABLED] = [48, 49];
const wire = await getCurrentFuseWire(executable).catch((error: Error) => {
  problems.push(`cannot read the fuses of ${relative(root, executable)}: ${error.message}`);
  return {} as Record<number, number>;
});
for (const [name, wanted] of Object.entries(requiredFuses) as Array<[keyof typeof requiredFuses, boolean]>) {
  const state = wire[fuseIndex[name]];
  if (state !== undefined && state !== (wanted ? ENABLED : DISABLED)) {
    const actual = state === ENABLED ? 'on' : state === DISABLED ? 'off' : `in state ${String(state)}`;
    problems.push(`fuse ${name} is ${actual}, not ${wanted ? 'on' : 'off'}`);
  }
}

const asar = join(resources, 'app.asar');
const unpacked = join(resources, 'app.asar.unpacked');
const packedFiles = new Set(
  listPackage(asar, { isPack: false }).map((p) => p.replaceAll('\\', '/').slice(1)),
);
for (const file of filesReadByPath(root, runtimeModules, readLockPackages(root))) {
  if (!existsSync(join(unpacked, file))) problems.push(`${file} is not in app.asar.unpacked`);
}
for (const path of notShipped) {
  const pattern = `node_modules/${path}{,/**}`;
  const packedAnyway = [...packedFiles].find((file) => minimatch(file, pattern, { dot: true }));
  if (packedAnyway)
    problems.push(`${packedAnyway} was packed, though build/runtimeModules.ts leaves ${path} out`);
}
if (!packedFiles.has('out/main/index.js')) problems.push('out/main/index.js is missing from app.asar');
// Models arrive through first-run setup, never inside the installer.
for (const file of packedFiles) {
  if (/\.(gguf|onnx|safetensors|mlmodel)$/i.test(file)) problems.push(`${file}: model weights were packed`);
}

if (isMac) {
  const plist = readFileSync(join(appPath, 'Contents', 'Info.plist'), 'utf8');
  for (const key of [...requiredUsageStrings, 'ElectronAsarIntegrity']) {
    if (!plist.includes(`<key>${key}</key>`)) problems.push(`Info.plist has no ${key}`);
  }
  if (signed) {
    try {
      execFileSync('codesign', ['--verify', '--deep', '--strict', appPath], { stdio: 'pipe' });
    } catch (error) {
      problems.push(`codesign --verify failed: ${(error as { stderr?: Buffer }).stderr?.toString().trim()}`);
    }
  }
}

function sizeOf(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

const megabytes = (bytes: number) => Math.round((bytes / 1e6) * 10) / 10;
// electron-builder writes the installers beside the folder that holds the packed app.
const dist = isMac ? dirname(dirname(appPath)) : dirname(appPath);
const installers = readdirSync(dist)
  .filter((name) => /\.(dmg|zip|AppImage|deb|exe)$/.test(name))
  .map((name) => ({ file: name, megabytes: megabytes(statSync(join(dist, name)).size) }));
const report = {
  platform: process.platform,
  arch: process.arch,
  signed,
  app: { path: relative(root, appPath), megabytes: megabytes(sizeOf(appPath)) },
  asar: megabytes(sizeOf(asar)),
  unpacked: megabytes(sizeOf(unpacked)),
  installers,
  problems,
};
writeFileSync(join(dist, 'package-report.json'), JSON.stringify(report, null, 2));

console.log(`app ${report.app.megabytes} MB (app.asar ${report.asar} MB, unpacked ${report.unpacked} MB)`);
for (const installer of installers) console.log(`${installer.file}: ${installer.megabytes} MB`);
const goalMegabytes = 250;
for (const installer of installers.filter((i) => i.megabytes > goalMegabytes)) {
  console.log(
    `::warning title=Installer size::${installer.file} is ${installer.megabytes} MB, over the ${goalMegabytes} MB goal`,
  );
}
for (const problem of problems) console.log(`::error title=Packaged app::${problem}`);
process.exit(problems.length > 0 ? 1 : 0);
