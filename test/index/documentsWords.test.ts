import { execFileSync, spawnSync } from 'node:child_process';
import { copyFile, mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/createCore';
import { corpusDir, hasCorpus, tempDir } from '../helpers/shared';
import { untilIndexed } from '../helpers/untilIndexed';

/*
 * `documents(term)` held to poppler: a document is listed when pdftotext's text of it holds the term
 * (or its plural) as a whole word, found by grep -w, and only then.
 */

// unstructured/reliance.pdf is left out: its page 3 reads here as a copy of page 2's text, while
// pdftotext reads a table of contents there, so a word's page cannot be held to poppler on it.
const FILES = [
  'docling/pdf__2305.03393v1-pg9.pdf',
  'docling/latex__2412.19437__figures__basic_arch.pdf',
  'mmlongbench_doc/2023.acl-long.386.pdf',
  'mmlongbench_doc/STEPBACK.pdf',
  'mmlongbench_doc/936c0e2c2e6c8e0c07c51bfaf7fd0a83.pdf',
  'financebench/FOOTLOCKER_2022_8K_dated_2022-08-19.pdf',
  'financebench/JOHNSON_JOHNSON_2022Q4_EARNINGS.pdf',
  'unstructured/multi-column.pdf',
];

/** "transformer" shares its stem with "transformation", which three of these files hold without it. */
const WORDS = [
  'transformer',
  'transformation',
  'revenue',
  'attention',
  'company',
  'language',
  'dividend',
  'table',
];

const hasPdftotext = spawnSync('pdftotext', ['-v']).status === 0;
const missing = !hasCorpus ? 'the corpus is absent' : !hasPdftotext ? 'pdftotext is missing' : null;
if (missing) console.log(`Skipping documents-by-word against pdftotext: ${missing}.`);

function pdftotext(path: string, page?: number): string {
  const pages = page === undefined ? [] : ['-f', String(page), '-l', String(page)];
  return execFileSync('pdftotext', [...pages, '-enc', 'UTF-8', path, '-'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** The word and its plural spellings as one extended regex, for grep -w. */
function spellings(word: string): string {
  const forms = [word, `${word}s`, `${word}es`];
  if (word.endsWith('y')) forms.push(`${word.slice(0, -1)}ies`);
  return forms.join('|');
}

/** Whether grep -i -w finds the pattern in the text (case folded, whole words). */
function grepWord(text: string, pattern: string): boolean {
  const found = spawnSync('grep', ['-q', '-i', '-w', '-E', pattern], {
    input: text,
    env: { ...process.env, LC_ALL: 'C.UTF-8' },
  });
  if (found.status === 2) throw new Error(`grep failed: ${String(found.stderr)}`);
  return found.status === 0;
}

describe.skipIf(missing !== null)('documents that hold a word, against pdftotext and grep -w', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let core: Core;
  let folder: string;
  const texts = new Map<string, string>();

  beforeAll(async () => {
    dir = await tempDir('quire-documents-words-');
    folder = join(dir.path, 'library');
    await mkdir(folder);
    for (const file of FILES) {
      const target = join(folder, basename(file));
      await copyFile(join(corpusDir, file), target);
      texts.set(basename(file), pdftotext(target));
    }
    core = createCore({
      dataDir: join(dir.path, 'data'),
      findModels: false,
      detectServers: false,
      embedInBackground: false,
      renderImages: false,
      ocr: false,
      workers: 1,
    });
    await core.start();
    await core.library.addFolder(folder);
    await untilIndexed(core);
    const unread = core.library.snapshot().documents.filter((d) => d.state !== 'indexed');
    if (unread.length > 0) throw new Error(`Not indexed: ${unread.map((d) => d.path).join(', ')}`);
  }, 900_000);

  afterAll(async () => {
    await core?.dispose();
    await dir?.cleanup();
  });

  it('lists exactly the documents whose text holds each word, at a page that holds it', async () => {
    const rows: string[] = [];
    let truePositives = 0;
    let listed = 0;
    let expected = 0;
    for (const word of WORDS) {
      const pattern = spellings(word);
      const want = [...texts].filter(([, text]) => grepWord(text, pattern)).map(([name]) => name);
      const found = await core.index.search.documents(word);
      const got = found.map((match) => basename(match.path));
      const hits = got.filter((name) => want.includes(name)).length;
      truePositives += hits;
      listed += got.length;
      expected += want.length;
      rows.push(
        `${word}: ${got.length} listed, ${want.length} by grep, precision ${ratio(hits, got.length)}, recall ${ratio(hits, want.length)}`,
      );
      expect({ word, got: [...got].sort() }).toEqual({ word, got: [...want].sort() });
      for (const match of found) {
        // The page given is one where poppler also sees the word.
        const page = { word, file: basename(match.path), page: match.page };
        expect({ ...page, holds: grepWord(pdftotext(match.path, match.page), pattern) }).toEqual({
          ...page,
          holds: true,
        });
        expect(match.forms.every((form) => new RegExp(`^(?:${pattern})$`).test(form))).toBe(true);
      }
    }
    console.log(
      `documents vs pdftotext + grep -w on ${FILES.length} PDFs: precision ${ratio(truePositives, listed)}, recall ${ratio(truePositives, expected)}\n  ${rows.join('\n  ')}`,
    );
  });

  it('counts words of the same stem only when asked, and names them per document', async () => {
    const only = await core.index.search.documents('transformer');
    const related = await core.index.search.documents('transformer', { related: true });
    const stemmed = [...texts].filter(([, text]) => grepWord(text, 'transform[a-z]*')).map(([name]) => name);
    console.log(
      `"transformer": ${only.length} document(s) hold the word; ${related.length} with related forms; grep transform*: ${stemmed.length}`,
    );
    expect(related.length).toBeGreaterThan(only.length);
    for (const match of related) {
      expect(match.forms.length).toBeGreaterThan(0);
      expect(match.forms.every((form) => form.startsWith('transform'))).toBe(true);
      const word = only.find((m) => m.documentId === match.documentId);
      // A document is listed without `related` exactly when "transformer(s)" is among its forms.
      expect(Boolean(word)).toBe(match.forms.some((form) => /^transformers?$/.test(form)));
    }
    const onlyRelated = related.filter((m) => !only.some((w) => w.documentId === m.documentId));
    expect(onlyRelated.some((m) => m.forms.includes('transformation'))).toBe(true);
    expect(related.map((m) => basename(m.path)).sort()).toEqual([...stemmed].sort());
  });
});

function ratio(part: number, whole: number): string {
  return whole === 0 ? '1.00' : (part / whole).toFixed(2);
}
