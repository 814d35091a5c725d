import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDocumentPool } from '../../src/core/documents/pool/documentPool';
import { QuireError, type ErrorCode } from '../../src/shared/errors';
import { sharedDir, withoutCorpus } from '../helpers/shared';

interface OddFile {
  path: string;
  category: string;
  password: string | null;
}

/** ODD.tsv notes give user passwords as "pages counted with password '...'" (with \xNN escapes). */
function readOddFiles(): OddFile[] {
  const [, ...lines] = readFileSync(join(sharedDir, 'corpus', 'odd', 'ODD.tsv'), 'utf8')
    .trim()
    .split('\n');
  return lines.map((line) => {
    const [localPath, category, , , , , notes] = line.split('\t');
    const quoted = /pages counted with password '([^']*)'/.exec(notes ?? '')?.[1];
    const password =
      quoted === undefined
        ? null
        : quoted.replace(/\\x([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return { path: join(sharedDir, localPath!), category: category!, password };
  });
}

const noCorpus = withoutCorpus('the odd PDFs of the corpus');

const CLEAR_FAILURES: ErrorCode[] = ['unsupported', 'needs_password', 'wrong_password', 'timeout'];
const pool = createDocumentPool({ size: 2, jobTimeoutMs: 20_000 });
afterAll(() => pool.dispose());

describe.skipIf(noCorpus)('odd PDFs', () => {
  const files = noCorpus ? [] : readOddFiles();

  it('lists the odd files with their known passwords', () => {
    expect(files.length).toBeGreaterThanOrEqual(40);
    expect(files.filter((file) => file.password !== null).length).toBeGreaterThanOrEqual(8);
  });

  it('every odd file ends in pages or a QuireError with a clear code', async () => {
    const outcomes = await Promise.all(
      files.map(async (file) => {
        try {
          const parsed = await pool.parse(file.path, { kind: 'pdf' });
          return { file, pages: parsed.pages.length, code: null };
        } catch (error) {
          return {
            file,
            pages: 0,
            code: error instanceof QuireError ? error.code : `not a QuireError: ${String(error)}`,
          };
        }
      }),
    );
    for (const outcome of outcomes) {
      if (outcome.code === null) {
        expect(outcome.pages, outcome.file.path).toBeGreaterThan(0);
      } else {
        expect(CLEAR_FAILURES, `${outcome.file.path}: ${outcome.code}`).toContain(outcome.code);
      }
    }
    // Files with a user password must ask for it; broken ones may be repaired by pdfjs or refused.
    for (const outcome of outcomes.filter((o) => o.file.password !== null)) {
      expect(outcome.code, outcome.file.path).toBe('needs_password');
    }
    expect(outcomes.filter((o) => o.code === null).length).toBeGreaterThan(10);
    // About fifty real files through two workers: a busy machine needs more than the default minute.
  }, 180_000);

  it('the known passwords unlock their files, and a wrong one is named as such', async () => {
    for (const file of files.filter((candidate) => candidate.password !== null)) {
      const parsed = await pool.parse(file.path, { kind: 'pdf', password: file.password! });
      expect(parsed.pages.length, file.path).toBeGreaterThan(0);
    }
    const locked = files.find((file) => file.path.endsWith('unstructured/password.pdf'))!;
    await expect(pool.parse(locked.path, { kind: 'pdf', password: 'not-it' })).rejects.toMatchObject({
      code: 'wrong_password',
    });
    const unlocked = await pool.parse(locked.path, { kind: 'pdf', password: 'password' });
    expect(
      unlocked.pages
        .map((page) => page.text)
        .join(' ')
        .replace(/\s/g, '').length,
    ).toBeGreaterThan(0);
  });

  it('a vanished file is not_found', async () => {
    await expect(
      pool.parse(join(sharedDir, 'corpus', 'odd', 'no-such-file.pdf'), { kind: 'pdf' }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});
