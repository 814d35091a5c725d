import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PdfPageReader } from '../../src/core/documents/pdf/pdfPageReaders';
import { OpenPdfReaders } from '../../src/core/documents/pdf/openPdfReaders';
import { samplePdfBytes } from '../helpers/samplePdfs';
import { tempDir } from '../helpers/shared';

/* The viewer's PDFs kept open between calls: one reader per file, reopened when the file changes. */

let dir: { path: string; cleanup: () => Promise<void> };
let readers: OpenPdfReaders;

beforeEach(async () => {
  dir = await tempDir();
  readers = new OpenPdfReaders();
});

afterEach(async () => {
  await readers.dispose();
  await dir.cleanup();
});

async function writePdf(name: string, pages: number): Promise<string> {
  const path = join(dir.path, name);
  const text = Array.from({ length: pages }, (_, i) => [`Page ${i + 1} of ${name}`]);
  await writeFile(path, samplePdfBytes(text));
  return path;
}

const borrow = (path: string) => readers.use(path, (reader) => Promise.resolve(reader));

describe('OpenPdfReaders', () => {
  it('opens a file once for many calls at once, and reads its pages', async () => {
    const path = await writePdf('manual.pdf', 3);
    const seen = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        readers.use(path, async (reader) => ({
          reader,
          read: await reader.readRuns(1 + (i % 3), { measure: false }),
        })),
      ),
    );
    expect(new Set(seen.map((s) => s.reader)).size).toBe(1);
    expect(seen[1]!.read.runs.map((run) => run.text).join(' ')).toContain('Page 2 of manual.pdf');
  });

  it('opens a file again once it has changed on disk', async () => {
    const path = await writePdf('report.pdf', 2);
    const before = await borrow(path);
    expect(before.pageCount).toBe(2);
    await writePdf('report.pdf', 5);
    const after = await borrow(path);
    expect(after).not.toBe(before);
    expect(after.pageCount).toBe(5);
  });

  it('keeps only the few most recently read files open', async () => {
    const paths = await Promise.all([1, 2, 3, 4, 5].map((n) => writePdf(`file${n}.pdf`, 1)));
    const first: PdfPageReader[] = [];
    for (const path of paths) first.push(await borrow(path));
    // The oldest was closed to make room; the newest is still the same open reader.
    expect(await borrow(paths[0]!)).not.toBe(first[0]);
    expect(await borrow(paths[4]!)).toBe(first[4]);
  });

  it('says why a file cannot be opened, and tries again on the next call', async () => {
    const path = join(dir.path, 'broken.pdf');
    await writeFile(path, 'not a pdf at all');
    await expect(borrow(path)).rejects.toThrow();
    await writePdf('broken.pdf', 1);
    expect((await borrow(path)).pageCount).toBe(1);
  });

  it('refuses calls once disposed', async () => {
    const path = await writePdf('letter.pdf', 1);
    await borrow(path);
    await readers.dispose();
    await expect(borrow(path)).rejects.toThrow(/closed/);
  });
});
