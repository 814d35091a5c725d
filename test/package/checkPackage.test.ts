/*
 * The checks behind `npm run check:package`, each shown passing on the project and failing on the
 * fault it exists to catch.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  packagingRules,
  readLockPackages,
  runtimeModules,
  type LockPackages,
} from '../../build/runtimeModules';
import { loadBuilderConfig } from '../../scripts/package/builderConfig';
import { entitlementProblems } from '../../scripts/package/hardening';
import { nodeVersionProblems } from '../../scripts/package/nodeVersion';
import { filesReadByPath, platformBuildProblems, unpackProblems } from '../../scripts/package/runtimeFiles';
import { lintWorkflow } from '../../scripts/package/workflowLint';
import { tempDir } from '../helpers/shared';

const root = join(import.meta.dirname, '..', '..');
let lock: LockPackages;
let dir: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  lock = readLockPackages(root);
  dir = await tempDir('quire-check-package-');
});
afterAll(() => dir.cleanup());

describe('electron-builder configuration', () => {
  it("passes electron-builder's own schema, with the runtime-module rules merged in", async () => {
    const { config, problems } = await loadBuilderConfig(root, 'electron-builder.yml');
    expect(problems).toEqual([]);
    expect(config?.asarUnpack).toContain('node_modules/pdfjs-dist/cmaps/**');
  });

  it('names the option the schema refuses', async () => {
    await writeFile(join(dir.path, 'package.json'), JSON.stringify({ name: 'x', version: '1.0.0' }));
    await writeFile(join(dir.path, 'broken.yml'), 'appId: x\nasarUnpak:\n  - node_modules/x/**\n');
    const { problems } = await loadBuilderConfig(dir.path, 'broken.yml');
    expect(problems.join('\n')).toContain('asarUnpak');
  });
});

describe('native builds in the lockfile', () => {
  it('holds a build of every native module for every target', () => {
    expect(platformBuildProblems(root, runtimeModules, lock)).toEqual([]);
  });

  it('notices a missing darwin-arm64 build', () => {
    const withoutDarwin = { ...lock };
    delete withoutDarwin['node_modules/@lancedb/lancedb-darwin-arm64'];
    expect(platformBuildProblems(root, runtimeModules, withoutDarwin)).toEqual([
      'package-lock.json has no darwin-arm64 build of @lancedb/lancedb',
    ]);
  });

  it('asks a module that serves only some platforms for those builds only', () => {
    const systemOcr = runtimeModules.filter((row) => row.package === '@napi-rs/system-ocr');
    expect(systemOcr).toHaveLength(1);
    expect(platformBuildProblems(root, systemOcr, lock)).toEqual([]);
    const withoutDarwin = { ...lock };
    delete withoutDarwin['node_modules/@napi-rs/system-ocr-darwin-arm64'];
    expect(platformBuildProblems(root, systemOcr, withoutDarwin)).toEqual([
      'package-lock.json has no darwin-arm64 build of @napi-rs/system-ocr',
    ]);
  });
});

describe('files read by path', () => {
  it('are all unpacked; this is the list', () => {
    const files = filesReadByPath(root, runtimeModules, lock);
    const byPackage = new Map<string, number>();
    for (const file of files) {
      const name = file
        .split('/')
        .slice(1, file.split('/')[1]!.startsWith('@') ? 3 : 2)
        .join('/');
      byPackage.set(name, (byPackage.get(name) ?? 0) + 1);
    }
    console.log(
      `Files read by path, unpacked beside app.asar (${files.length}, this platform's builds):\n` +
        [...byPackage].map(([name, count]) => `  ${name}: ${count}`).join('\n'),
    );
    expect(files).toContain('node_modules/@embedpdf/pdfium/dist/pdfium.wasm');
    expect(files).toContain('node_modules/pdfjs-dist/standard_fonts/FoxitFixed.pfb');
    expect(files.some((f) => f.startsWith('node_modules/pdfjs-dist/cmaps/'))).toBe(true);
    expect(files.some((f) => f.startsWith('node_modules/pdfjs-dist/wasm/') && f.endsWith('.wasm'))).toBe(
      true,
    );
    expect(files.some((f) => /@lancedb\/lancedb-[^/]+\/lancedb\.[^/]+\.node$/.test(f))).toBe(true);
    expect(files.some((f) => f.startsWith('node_modules/pdfjs-dist/legacy/'))).toBe(false);
    expect(unpackProblems(root, runtimeModules, lock, packagingRules(lock))).toEqual([]);
  });

  it('notices an asset left inside the archive and a native module without a row', () => {
    const rules = packagingRules(lock);
    const withoutCmaps = { ...rules, asarUnpack: rules.asarUnpack.filter((p) => !p.includes('cmaps')) };
    const problems = unpackProblems(root, runtimeModules, lock, withoutCmaps);
    expect(
      problems.some((p) => /pdfjs-dist\/cmaps\/.+ is read by path but packed inside app\.asar/.test(p)),
    ).toBe(true);

    const withoutReflink = runtimeModules.filter((row) => row.package !== '@reflink/reflink');
    const unlisted = unpackProblems(root, withoutReflink, lock, packagingRules(lock, withoutReflink));
    expect(
      unlisted.some((p) => /@reflink\/reflink-.+\.node is native but neither unpacked nor left out/.test(p)),
    ).toBe(true);
  });
});

describe('one Node', () => {
  it('engines, .nvmrc, README and workflow agree with every installed package', () => {
    expect(nodeVersionProblems(root, lock)).toEqual([]);
  });

  it("notices an engines range wider than electron's", () => {
    const older = { ...lock, '': { ...lock['']!, engines: { node: '>=20.19' } } };
    expect(nodeVersionProblems(root, older)).toContain(
      "engines.node >=20.19 is not inside electron's >= 22.12.0",
    );
  });
});

describe('entitlements', () => {
  it('each one needs a comment, and only known ones are allowed', () => {
    const plist = [
      '<!-- JIT for V8 -->',
      '<key>com.apple.security.cs.allow-jit</key><true/>',
      '<key>com.apple.security.cs.disable-library-validation</key><true/>',
      '<!-- because -->',
      '<key>com.apple.security.device.camera</key><true/>',
    ].join('\n');
    expect(entitlementProblems('e.plist', plist)).toEqual([
      'e.plist: com.apple.security.cs.disable-library-validation has no comment saying why',
      'e.plist: com.apple.security.device.camera is not an entitlement Quire needs',
    ]);
  });
});

describe('actionlint', () => {
  it('reports a job that needs a job that does not exist', async () => {
    const workflow = [
      'on: push',
      'jobs:',
      '  a:',
      '    runs-on: ubuntu-24.04',
      '    needs: b',
      '    steps:',
      '      - run: echo hi',
    ].join('\n');
    await mkdir(join(dir.path, 'wf'), { recursive: true });
    const findings = await lintWorkflow(workflow, 'wf/broken.yml');
    expect(findings.map((f) => f.kind)).toContain('job-needs');
  });
});
