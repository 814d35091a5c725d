/**
 * Writes a large library for `npm run bench -- library-scale`: N distinct documents (mostly PDF,
 * with DOCX, HTML and Markdown) in a tree of folders, about three pages each, their text real
 * sentences taken from the corpus's PDFs (read once with `pdftotext`) in a seeded order, so every
 * run writes the same files and no two files share content.
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SeededRandom } from '../../src/core/common/seededRandom';
import { corpusDir } from '../../test/helpers/shared';
import { samplePdfBytes } from '../../test/helpers/samplePdfs';
import { writeZip } from '../../test/helpers/zipWriter';
import { pickFiles, readablePdfs } from './extract';

const run = promisify(execFile);

/** Lines per generated page and characters per line: a page of ordinary prose. */
const LINES_PER_PAGE = 30;
const LINE_CHARS = 70;
const FOLDERS = 100;
const SOURCE_PDFS = 40;

export interface GeneratedLibrary {
  files: number;
  /** Pages written into PDFs; office and web files are laid out by Quire, so theirs are counted when read. */
  pdfPages: number;
  byKind: Record<'pdf' | 'docx' | 'html' | 'markdown', number>;
}

/** Sentences of real prose from the corpus: printable ASCII (the PDFs use a standard font), 40–200 characters. */
async function corpusSentences(): Promise<string[]> {
  const sentences: string[] = [];
  for (const row of pickFiles(readablePdfs(), SOURCE_PDFS)) {
    const { stdout } = await run('pdftotext', ['-enc', 'ASCII7', join(corpusDir, row.localPath), '-'], {
      maxBuffer: 256 * 1024 * 1024,
    });
    for (const sentence of stdout.replace(/\s+/g, ' ').split(/(?<=[.!?])\s+/)) {
      const clean = sentence.replace(/[^\x20-\x7e]/g, '').trim();
      if (clean.length >= 40 && clean.length <= 200 && /[a-z]{3}/.test(clean)) sentences.push(clean);
    }
  }
  if (sentences.length < 1000) throw new Error(`Only ${sentences.length} sentences in the corpus sample.`);
  return sentences;
}

function wrap(text: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line.length + word.length + 1 > LINE_CHARS && line) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** One document's pages of lines; its first line names it, so no two documents hold the same text. */
function documentPages(random: SeededRandom, sentences: string[], n: number, pages: number): string[][] {
  const result: string[][] = [];
  for (let page = 0; page < pages; page++) {
    const lines: string[] = page === 0 ? [`Record ${n}: ${sentences[random.int(sentences.length)]!}`] : [];
    while (lines.length < LINES_PER_PAGE) lines.push(...wrap(sentences[random.int(sentences.length)]!));
    result.push(lines.slice(0, LINES_PER_PAGE));
  }
  return result;
}

const escapeXml = (text: string) => text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

function docxBytes(paragraphs: string[]): Buffer {
  const body = paragraphs
    .map((text) => `<w:p><w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`)
    .join('');
  const xml = (text: string) => Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${text}`);
  return writeZip([
    {
      name: '[Content_Types].xml',
      data: xml(
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
          '<Default Extension="xml" ContentType="application/xml"/>' +
          '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
          '</Types>',
      ),
    },
    {
      name: '_rels/.rels',
      data: xml(
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
          '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
          '</Relationships>',
      ),
    },
    {
      name: 'word/document.xml',
      data: xml(
        '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
          `<w:body>${body}</w:body></w:document>`,
      ),
    },
  ]);
}

/** Writes `count` documents under `folder` (in FOLDERS sub-folders); about 70% PDF, 10% each of the others. */
export async function writeLibrary(folder: string, count: number, seed = 10_000): Promise<GeneratedLibrary> {
  const sentences = await corpusSentences();
  const random = new SeededRandom(seed);
  const byKind = { pdf: 0, docx: 0, html: 0, markdown: 0 };
  let pdfPages = 0;
  for (let f = 0; f < FOLDERS; f++) await mkdir(join(folder, `folder-${String(f).padStart(3, '0')}`));
  for (let n = 0; n < count; n++) {
    const dir = join(folder, `folder-${String(n % FOLDERS).padStart(3, '0')}`);
    const pick = random.next();
    // 1 to 5 pages, three on average.
    const pages = documentPages(random, sentences, n, 1 + random.int(5));
    const name = `record-${String(n).padStart(5, '0')}`;
    if (pick < 0.7) {
      await writeFile(join(dir, `${name}.pdf`), samplePdfBytes(pages));
      byKind.pdf++;
      pdfPages += pages.length;
    } else if (pick < 0.8) {
      await writeFile(join(dir, `${name}.docx`), docxBytes(pages.map((lines) => lines.join(' '))));
      byKind.docx++;
    } else if (pick < 0.9) {
      const body = pages.map((lines) => `<p>${escapeXml(lines.join(' '))}</p>`).join('\n');
      await writeFile(
        join(dir, `${name}.html`),
        `<!doctype html><html><head><title>Record ${n}</title></head><body>${body}</body></html>\n`,
      );
      byKind.html++;
    } else {
      await writeFile(
        join(dir, `${name}.md`),
        `# Record ${n}\n\n${pages.map((lines) => lines.join(' ')).join('\n\n')}\n`,
      );
      byKind.markdown++;
    }
  }
  return { files: count, pdfPages, byKind };
}
