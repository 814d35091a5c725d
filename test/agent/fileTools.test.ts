import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createState } from '../../src/core/agent/state';
import { analyzeQuestion } from '../../src/core/agent/constraints';
import { DEFAULT_LIMITS } from '../../src/core/agent/limits';
import {
  countFiles,
  directoryTree,
  fileMetadata,
  grepFiles,
  listFiles,
} from '../../src/core/agent/tools/fileTools';
import { resolveInLibrary } from '../../src/core/agent/tools/libraryPaths';
import { realRoots } from '../../src/core/library/pathPolicy';
import type { AnyTool, ToolYield } from '../../src/core/agent/tools/types';
import { tempDir } from '../helpers/shared';
import { fakePorts } from './fakePorts';
import { scriptedRoles } from './scriptedModel';

let base: { path: string; cleanup: () => Promise<void> };
let library: string;
let outsideDir: string;

beforeAll(async () => {
  base = await tempDir('quire-agent-files-');
  library = join(base.path, 'library');
  outsideDir = join(base.path, 'private');
  await mkdir(join(library, 'reports', '2024'), { recursive: true });
  await mkdir(outsideDir, { recursive: true });
  await writeFile(join(library, 'a.pdf'), '%PDF-1.4 a');
  await writeFile(join(library, 'reports', 'b.pdf'), '%PDF-1.4 b');
  await writeFile(join(library, 'reports', '2024', 'c.pdf'), '%PDF-1.4 c');
  await writeFile(join(library, 'notes.md'), '# Notes\nThe budget review is on Friday.\n');
  await writeFile(join(outsideDir, 'secret.pdf'), '%PDF-1.4 secret');
  await writeFile(join(outsideDir, 'secret.txt'), 'the budget password is hunter2\n');
  // Links out of the library must be refused; a link inside it is fine.
  await symlink(outsideDir, join(library, 'escape'));
  await symlink(join(outsideDir, 'secret.txt'), join(library, 'looks-local.txt'));
  await symlink(join(library, 'reports'), join(library, 'reports-link'));
});

afterAll(async () => {
  await base.cleanup();
});

async function runTool(tool: AnyTool, inputs: Record<string, unknown>) {
  const roots = await realRoots([library]);
  const state = createState({
    question: 'q',
    history: [],
    requirements: analyzeQuestion('q'),
    capabilities: { see: false, libraryRoots: roots, web: false },
  });
  const ports = fakePorts({ models: scriptedRoles({}) });
  const parsed = tool.inputSchema.parse(inputs);
  const out: ToolYield[] = [];
  for await (const item of tool.run(parsed, {
    state,
    ports,
    limits: DEFAULT_LIMITS,
    signal: new AbortController().signal,
    emitToken: () => {},
    emit: () => {},
  })) {
    out.push(item);
  }
  return out;
}

const textOf = (items: ToolYield[]) =>
  items.map((i) => (i.type === 'result' ? i.text : i.message)).join('\n');

describe('file tools', () => {
  it('counts PDFs inside the roots only, not through links that leave them', async () => {
    const [result] = await runTool(countFiles, { kind: 'pdf', folder: '' });
    // a.pdf, reports/b.pdf, reports/2024/c.pdf; reports-link revisits the same real folder.
    expect(result).toMatchObject({ type: 'result', items: 3 });
  });

  it('lists files without anything reached through an outside link', async () => {
    const text = textOf(await runTool(listFiles, { kind: 'all', folder: '', limit: '100' }));
    expect(text).toContain('a.pdf');
    expect(text).toContain('notes.md');
    expect(text).not.toContain('secret');
  });

  it('refuses ../ paths and absolute paths outside the roots', async () => {
    const roots = await realRoots([library]);
    await expect(resolveInLibrary('../private/secret.pdf', roots)).rejects.toMatchObject({
      code: 'outside_library',
    });
    await expect(resolveInLibrary(join(outsideDir, 'secret.pdf'), roots)).rejects.toMatchObject({
      code: 'outside_library',
    });
    await expect(resolveInLibrary('reports/../../private', roots)).rejects.toMatchObject({
      code: 'outside_library',
    });
    await expect(runTool(fileMetadata, { path: '../private/secret.pdf' })).rejects.toMatchObject({
      code: 'outside_library',
    });
    await expect(runTool(countFiles, { kind: 'all', folder: '..' })).rejects.toMatchObject({
      code: 'outside_library',
    });
  });

  it('refuses symlinks whose real path is outside the roots', async () => {
    const roots = await realRoots([library]);
    await expect(resolveInLibrary('escape/secret.pdf', roots)).rejects.toMatchObject({
      code: 'outside_library',
    });
    await expect(resolveInLibrary('looks-local.txt', roots)).rejects.toMatchObject({
      code: 'outside_library',
    });
    await expect(runTool(listFiles, { kind: 'all', folder: 'escape', limit: '20' })).rejects.toMatchObject({
      code: 'outside_library',
    });
    const grep = textOf(await runTool(grepFiles, { pattern: 'password', folder: '' }));
    expect(grep).not.toContain('hunter2');
  });

  it('resolves paths inside the roots, links that stay inside included', async () => {
    const roots = await realRoots([library]);
    expect(await resolveInLibrary('reports-link/b.pdf', roots)).toBe(join(roots[0]!, 'reports', 'b.pdf'));
    const meta = textOf(await runTool(fileMetadata, { path: 'reports/b.pdf' }));
    expect(meta).toContain('size: 10 B');
    await expect(resolveInLibrary('missing.pdf', roots)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('greps text files and file names, and draws the tree', async () => {
    const grep = textOf(await runTool(grepFiles, { pattern: 'budget review', folder: '' }));
    expect(grep).toMatch(/notes\.md:2: The budget review is on Friday\./);
    const tree = textOf(await runTool(directoryTree, { folder: '', depth: '2' }));
    expect(tree).toMatch(/reports\/ \(2 files\)/);
    expect(tree).toMatch(/2024\/ \(1 files\)/);
  });
});
