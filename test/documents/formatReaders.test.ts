import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from '../../src/core/documents/parseDocument';
import { readDocx } from '../../src/core/documents/readers/docx/readDocx';
import { readEpub } from '../../src/core/documents/readers/epub/readEpub';
import { documentKindOf, FORMAT_READERS, readerFor } from '../../src/core/documents/readers/formatReaders';
import { readHtml } from '../../src/core/documents/readers/html/readHtml';
import { readOdf } from '../../src/core/documents/readers/odf/readOdf';
import { readPptx } from '../../src/core/documents/readers/pptx/readPptx';
import { readXlsx } from '../../src/core/documents/readers/xlsx/readXlsx';
import type { Block, StructuredDocument } from '../../src/core/documents/structure/model';
import type { ParsedDocument } from '../../src/core/documents/types';
import { DocumentKind } from '../../src/shared/domain/library';
import { QuireError } from '../../src/shared/errors';
import sharp from 'sharp';
import { OcrStore } from '../../src/core/documents/ocr/ocrStore';
import { recognizePages } from '../../src/core/documents/ocr/recognizePdfPages';
import { TesseractEngine } from '../../src/core/documents/ocr/tesseractEngine';
import { PageImageStore } from '../../src/core/documents/render/pageImageStore';
import { corpusDir, tempDir, withoutCorpus } from '../helpers/shared';
import { writeZip } from '../helpers/zipWriter';

const noCorpus = withoutCorpus('format readers on the corpus office files');

const office = join(corpusDir, 'office');
const file = (name: string) => join(office, name);

// Each format's own module, to see the structure it keeps before layout.
const structureReaders: Record<string, (path: string) => Promise<StructuredDocument>> = {
  docx: readDocx,
  pptx: readPptx,
  xlsx: readXlsx,
  odt: (path) => readOdf(path, 'odt'),
  html: readHtml,
  epub: readEpub,
};
function structure(name: string): Promise<StructuredDocument> {
  return structureReaders[name.slice(name.lastIndexOf('.') + 1)]!(file(name));
}
function parse(path: string): Promise<ParsedDocument> {
  return parseDocument(path, { kind: documentKindOf(path)! });
}
const blocksOf = (doc: StructuredDocument, kind: Block['kind']) =>
  doc.units.flatMap((unit) => unit.blocks.filter((block) => block.kind === kind));
async function failure(promise: Promise<unknown>): Promise<QuireError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(QuireError);
  return error as QuireError;
}

/** Every chunk is the text of its page between its offsets, inside the page. */
function expectConsistent(parsed: ParsedDocument) {
  expect(parsed.pages.length).toBeGreaterThan(0);
  for (const chunk of parsed.chunks) {
    const page = parsed.pages[chunk.page - 1]!;
    expect(page.text.slice(chunk.charStart, chunk.charEnd)).toBe(chunk.text);
    for (const box of chunk.boxes) {
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(page.height);
    }
  }
}

describe('the format readers', () => {
  it('give every kind of document one reader and every extension one kind', () => {
    expect(FORMAT_READERS.map((reader) => reader.kind).sort()).toEqual([...DocumentKind.options].sort());
    const extensions = FORMAT_READERS.flatMap((reader) => reader.extensions);
    expect(new Set(extensions).size).toBe(extensions.length);
    expect(documentKindOf('/x/Deck.PPTM')).toBe('pptx');
    expect(documentKindOf('/x/notes.rtf')).toBeNull();
  });
});

describe.skipIf(noCorpus)('Word documents', () => {
  it('keeps headings, lists, tables with their header row, and alt text', async () => {
    const doc = await structure('word_sample.docx');
    expect(doc.title).toBe('Summer activities');
    expect(blocksOf(doc, 'heading').map((b) => b.kind === 'heading' && b.text)).toContain(
      'Swimming in the lake',
    );
    const list = blocksOf(doc, 'list')[0];
    expect(list?.kind === 'list' && list.items.map((item) => item.text)).toContain('Paddle about');
    const table = blocksOf(doc, 'table')[0];
    expect(table?.kind === 'table' && table.rows[1]).toEqual(['Leaves', 'Ash, Elm, Maple', '50']);
    expect(blocksOf(doc, 'image').length).toBeGreaterThan(0);
  });

  it('puts comments next to the paragraph they annotate and starts a page at a page break', async () => {
    const comments = await parse(file('docx_comments.docx'));
    const text = comments.pages[0]!.text;
    expect(text.indexOf('Comment [JR1]')).toBeGreaterThan(text.indexOf('first paragraph that has a comment'));
    expect(text).toContain('This is a sample reviewer comment on the first paragraph.');
    const broken = await parse(file('docx_page_header_footer_first_page.docx'));
    expect(broken.pages).toHaveLength(2);
    expect(broken.pages[1]!.text).toContain('This is body text on page 2.');
    expectConsistent(broken);
  });

  it('reads text boxes and Word 97-2003 files', async () => {
    expect((await parse(file('textbox.docx'))).pages[0]!.text).toContain('Chiayi County Shuishang Township');
    const legacy = await parse(file('legacy_sample.doc'));
    expect(legacy.pages[0]!.text).toContain('Swimming in the lake');
    expectConsistent(legacy);
  });
});

describe.skipIf(noCorpus)('PowerPoint decks', () => {
  it('makes each slide a page with its title, comments with their authors and speaker notes', async () => {
    const deck = await parse(file('powerpoint_comments.pptx'));
    expect(deck.pages).toHaveLength(3);
    expect(deck.pages[0]!.text).toMatch(/^Slide 1\n\nTest Slide With Comments/);
    expect(deck.pages[0]!.text).toContain('Comment by John Reviewer\nThis is a sample reviewer comment');
    const sample = await structure('powerpoint_sample.pptx');
    expect(blocksOf(sample, 'note').some((b) => b.kind === 'note' && b.label === 'Speaker notes')).toBe(true);
    expect(blocksOf(sample, 'table')).toHaveLength(1);
    expectConsistent(deck);
  });

  it('reads charts as tables and skips broken pictures and unknown shapes without losing the slide', async () => {
    const chart = await parse(file('pptx_chart.pptx'));
    expect(chart.pages[0]!.text).toContain('Chart: Wild Duck Observations by Year');
    expect(chart.pages[0]!.text).toContain('Freshwater Ducks\t120\t130\t150\t175');
    const shapes = await parse(file('powerpoint_unrecognized_shape.pptx'));
    expect(shapes.pages.map((page) => page.text).join('\n')).toContain('Enterprise segment led growth');
    const pictures = await parse(file('powerpoint_malformed_pictures.pptx'));
    expect(pictures.pages).toHaveLength(3);
  });

  it('lists .ppt files as unsupported with what to do', async () => {
    const error = await failure(parse(file('legacy_sample.ppt')));
    expect(error.code).toBe('unsupported_format');
    expect(error.message).toContain('save it as .pptx');
  });
});

describe.skipIf(noCorpus)('Excel workbooks', () => {
  it('makes a sheet a page, a header row a header, and keeps notes and threaded comments with their authors', async () => {
    const workbook = await parse(file('xlsx_comments.xlsx'));
    const text = workbook.pages[0]!.text;
    expect(text).toMatch(/^Sheet Sheet1\n/);
    expect(text).toContain('Year\tFreshwater Ducks\tSaltwater Ducks\tDucks');
    expect(text).toMatch(/Comment on A1 by John Reviewer\nWhy Python specifically\?/);
    expect(text).toMatch(/Comment on F7 by Marcus Sterling \(MS\)\nI never thought it would be so low/);
    const sales = await parse(file('xlsx_02_sample_sales_data.xlsm'));
    expect(sales.pages[0]!.text).toContain('Widget A\t2024-01-01\t5\t5000');
    expectConsistent(workbook);
  });

  it('reads a chart drawn on a sheet and sheets with odd layouts', async () => {
    const charts = await parse(file('xlsx_03_chartsheet.xlsx'));
    expect(charts.pages[1]!.text).toContain('Chart: Wild Duck Observations by Year');
    const edges = await structure('xlsx_06_edge_cases_.xlsx');
    expect(edges.units.map((unit) => unit.label)).toEqual([
      'Sheet missing_header_head',
      'Sheet Attached_left',
      'Sheet Diagonal',
    ]);
  });
});

describe.skipIf(noCorpus)('OpenDocument, HTML and EPUB', () => {
  it('reads OpenDocument text, slides with notes, and sheets', async () => {
    const text = await structure('text_document_01.odt');
    expect(blocksOf(text, 'heading').length).toBeGreaterThan(2);
    const slides = await parse(file('odf_presentation_01.odp'));
    expect(slides.pages).toHaveLength(3);
    expect(slides.pages[1]!.text).toContain('Speaker notes\nSome notes on the second slide.');
    expect(slides.pages[0]!.text).toContain('A merged with B\tA merged with B\tC');
    const sheet = await parse(file('odf_table_with_title_01.ods'));
    expect(sheet.pages[0]!.text).toContain('Number of freshwater ducks per year');
  });

  it('reads web pages with merged table cells and EPUB chapters by their titles', async () => {
    const page = await structure('html_rich_table_cells.html');
    const table = blocksOf(page, 'table')[0];
    expect(table?.kind === 'table' && table.headerRows).toBe(1);
    const wiki = await parse(file('wiki_duck.html'));
    expect(wiki.pages.length).toBeGreaterThan(5);
    expect(wiki.pages.every((p) => p.height === 792)).toBe(true);
    expectConsistent(wiki);
    const book = await structure('epub_purvis_poetry.epub');
    expect(book.title).toBe('Poetry');
    expect(book.units.map((unit) => unit.label)).toContain('The Grave of the Slave');
  });
});

describe.skipIf(noCorpus)('pictures', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  beforeAll(async () => {
    dir = await tempDir();
  });
  afterAll(() => dir.cleanup());

  it('are pages that wait for OCR, one per TIFF frame, and OCR reads them onto the picture', async () => {
    const tiff = file('2206.01062.tif');
    const before = await parse(tiff);
    expect(before.pages.map((page) => [page.needsOcr, page.text, page.textSource?.method])).toEqual([
      [true, '', 'none'],
      [true, '', 'none'],
    ]);
    expect((await parse(file('webp-test.webp'))).pages).toHaveLength(1);

    const results = new OcrStore(join(dir.path, 'ocr'));
    const engine = new TesseractEngine();
    const contentHash = 'cd'.repeat(32);
    try {
      const [outcome] = await recognizePages(
        tiff,
        () => readerFor('image').pagesForOcr!(tiff, {}),
        { contentHash, pages: [1], engine: 'auto', languages: ['eng'] },
        results,
        async () => engine,
      );
      expect(outcome).toMatchObject({ page: 1, reused: false, problem: null });
    } finally {
      await engine.dispose();
    }
    const ocr = await results.all(contentHash, { engine: 'tesseract', languages: ['eng'] });
    const after = await parseDocument(tiff, { kind: 'image', ocr });
    const page = after.pages[0]!;
    expect(page.text).toContain('DocLayNet');
    expect(page.textSource).toMatchObject({ method: 'ocr', engine: 'tesseract' });
    expect(after.pages[1]!.textSource?.method).toBe('none');
    const chunk = after.chunks.find((candidate) => candidate.text.includes('DocLayNet'))!;
    for (const box of chunk.boxes) {
      expect(box.x + box.width).toBeLessThanOrEqual(page.width + 0.01);
      expect(box.y + box.height).toBeLessThanOrEqual(page.height + 0.01);
    }

    // The page image is the picture itself, upright, at the asked size.
    const store = new PageImageStore(join(dir.path, 'images'));
    const [image] = await readerFor('image').drawPages!(
      tiff,
      { contentHash, pages: [2], longEdge: 800 },
      store,
    );
    const drawn = await sharp(store.absolutePath(image!.full)).metadata();
    expect([drawn.width, drawn.height]).toEqual([Math.round((612 / 792) * 800), 800]);
  });

  it('fail with the reason when damaged', async () => {
    const truncated = join(dir.path, 'cut.png');
    await writeFile(truncated, (await readFile(file('old_newspaper.png'))).subarray(0, 200));
    const error = await failure(parse(truncated));
    expect(error.code).toBe('unsupported');
    expect(error.message).toMatch(/damaged/);
  });
});

describe('damaged and hostile archives', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  beforeAll(async () => {
    dir = await tempDir();
  });
  afterAll(() => dir.cleanup());

  it('refuses a zip bomb by the sizes it declares, before inflating it', async () => {
    const path = join(dir.path, 'bomb.docx');
    const entries = Array.from({ length: 3 }, (_, i) => ({
      name: `word/part${i}.xml`,
      data: Buffer.from('<x/>'),
      declaredSize: 200 * 1024 * 1024,
    }));
    await writeFile(path, writeZip(entries));
    const error = await failure(parse(path));
    expect(error.code).toBe('unsupported');
    expect(error.message).toMatch(/unpacks to 600 MB, more than the 256 MB limit/);
  });

  it('stops an entry that inflates past the size it declares', async () => {
    const path = join(dir.path, 'liar.xlsx');
    await writeFile(
      path,
      writeZip([{ name: 'xl/workbook.xml', data: Buffer.alloc(4 * 1024 * 1024), declaredSize: 1024 }]),
    );
    const error = await failure(parse(path));
    expect(error.code).toBe('unsupported');
    expect(error.message).toMatch(/more than it declares/);
  });

  it('fails an EPUB whose package file lists nothing it can read, saying why', async () => {
    const chapterItem = (n: number) => ({
      manifest: `<item id="ch${n}" href="ch${n}.xhtml" media-type="application/xhtml+xml"/>`,
      spine: `<itemref idref="ch${n}"/>`,
    });
    const book = (chapters: number, doctype: string, body: string) => {
      const items = Array.from({ length: chapters }, (_, i) => chapterItem(i + 1));
      const opf = `<?xml version="1.0"?>${doctype}<package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Pumps</dc:title><dc:identifier id="id">x</dc:identifier></metadata><manifest>${items.map((i) => i.manifest).join('')}</manifest><spine>${items.map((i) => i.spine).join('')}</spine></package>`;
      const chapter = `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>One</title></head><body>${body}</body></html>`;
      return writeZip([
        { name: 'mimetype', data: Buffer.from('application/epub+zip') },
        {
          name: 'META-INF/container.xml',
          data: Buffer.from(
            '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
          ),
        },
        { name: 'OEBPS/content.opf', data: Buffer.from(opf) },
        ...items.map((_, i) => ({ name: `OEBPS/ch${i + 1}.xhtml`, data: Buffer.from(chapter) })),
      ]);
    };
    const write = async (name: string, bytes: Buffer) => {
      const path = join(dir.path, name);
      await writeFile(path, bytes);
      return path;
    };
    const text = '<p>The Zephyr-9 pump holds 42 bar.</p>';
    expect(JSON.stringify(await readEpub(await write('two.epub', book(2, '', text))))).toContain('Zephyr-9');
    const withDoctype = await write('doctype.epub', book(2, '<!DOCTYPE package [<!ENTITY x "y">]>', text));
    expect(JSON.stringify(await readEpub(withDoctype))).toContain('Zephyr-9');
    // epub2 reads a manifest of a single item as empty: that book must fail with why, not index with no pages.
    await expect(readEpub(await write('one.epub', book(1, '', text)))).rejects.toThrow(
      /EPUB book lists no chapters Quire can read/,
    );
    await expect(readEpub(await write('blank.epub', book(2, '', '')))).rejects.toThrow(
      /has no text Quire can read/,
    );
  });

  it.skipIf(noCorpus)('fails truncated files and renamed non-archives with the reason', async () => {
    const cut = join(dir.path, 'cut.pptx');
    await writeFile(cut, (await readFile(file('powerpoint_sample.pptx'))).subarray(0, 5000));
    expect((await failure(parse(cut))).message).toMatch(/PowerPoint presentation is damaged/);
    const fake = join(dir.path, 'notes.epub');
    await writeFile(fake, 'plain text, not a book');
    expect((await failure(parse(fake))).message).toMatch(/EPUB book is damaged/);
    const empty = join(dir.path, 'empty.odt');
    await copyFile(file('wiki.md'), empty);
    expect((await failure(parse(empty))).code).toBe('unsupported');
  });
});
