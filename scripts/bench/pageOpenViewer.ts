/**
 * `npm run bench -- page-open --viewer [--opens N] [--scans N]`: time to a drawn page in the browser
 * UI while OCR runs, end to end. The real core and `quire serve` index a library of scanned PDFs (OCR
 * keeps the workers busy) and copies of a text PDF; a Chromium page then asks for a page the way the
 * viewer does (pages.get over the WebSocket) and draws its image (decoded in the page), timing both.
 * Each open is a copy not drawn yet, so every open waits for a drawing. The page takes whichever form
 * the server answers with (a data URL, or an address on the page-image route), so the same file
 * measures an older build too.
 */
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium } from '@playwright/test';
import { createCore } from '../../src/core/createCore';
import { startLoopbackServer } from '../../src/core/server/loopbackServer';
import { corpusDir, tempDir } from '../../test/helpers/shared';
import { numberOption, type BenchReport } from './report';

const SCAN = join(corpusDir, 'ocrmypdf', 'multipage.pdf');
const VIEWED = join(corpusDir, 'pdfjs', 'tracemonkey.pdf');
const CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'];

/** A copy with a different content hash (bytes after %%EOF are ignored by readers). */
async function distinctCopy(from: string, to: string, n: number): Promise<void> {
  await writeFile(to, await readFile(from));
  await appendFile(to, `\n%copy ${n}\n`);
}

interface Open {
  ms: number;
  callMs: number;
  /** Characters of the pages.get answer that crossed the WebSocket. */
  answerChars: number;
  form: 'data URL' | 'route';
}

/** Runs in the page: pages.get over a fresh socket, then the image decoded, as the viewer shows it. */
async function openInPage(input: { token: string; documentId: string; page: number }): Promise<Open> {
  // The page's own globals (the scripts compile without the DOM's types).
  const { location, Image } = globalThis as unknown as {
    location: { host: string };
    Image: new () => { src: string; decode(): Promise<void> };
  };
  const ws = new WebSocket(`ws://${location.host}/ws?token=${encodeURIComponent(input.token)}`);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  const started = performance.now();
  const answer = await new Promise<string>((resolve) => {
    ws.onmessage = (event) => {
      const text = String(event.data);
      if (text.includes('"type":"result"')) resolve(text);
    };
    ws.send(
      JSON.stringify({
        type: 'call',
        id: 1,
        name: 'pages.get',
        input: { documentId: input.documentId, page: input.page, size: 'full' },
      }),
    );
  });
  const callMs = performance.now() - started;
  ws.close();
  const result = JSON.parse(answer) as {
    result: { ok: boolean; value?: { dataUrl?: string; version?: string }; error?: { message: string } };
  };
  if (!result.result.ok || !result.result.value) throw new Error(result.result.error?.message ?? 'no page');
  const value = result.result.value;
  const image = new Image();
  image.src = value.dataUrl ?? `/page-images/${input.documentId}/${input.page}/full?v=${value.version ?? ''}`;
  await image.decode();
  return {
    ms: performance.now() - started,
    callMs,
    answerChars: answer.length,
    form: value.dataUrl ? 'data URL' : 'route',
  };
}

export async function runViewer(args: string[]): Promise<BenchReport> {
  const opens = numberOption(args, '--opens', 4);
  const scans = numberOption(args, '--scans', 4);
  const dir = await tempDir('quire-bench-page-drawn-');
  const folder = join(dir.path, 'library');
  await mkdir(folder);
  for (let i = 0; i < scans; i++) await distinctCopy(SCAN, join(folder, `scan-${i}.pdf`), i);
  for (let i = 0; i < opens; i++) await distinctCopy(VIEWED, join(folder, `viewed-${i}.pdf`), i);
  const core = createCore({ dataDir: join(dir.path, 'data'), findModels: false, detectServers: false });
  await core.start();
  const server = await startLoopbackServer({
    core,
    staticDir: join(import.meta.dirname, '..', '..', 'out', 'renderer'),
  });
  const browser = await chromium.launch({
    executablePath: process.env.QUIRE_CHROMIUM ?? CHROMIUM.find(existsSync) ?? CHROMIUM[0]!,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  const samples: Array<Open & { drawnBefore: boolean; recognizing: number }> = [];
  try {
    await core.library.addFolder(folder);
    const viewed = () =>
      core.library
        .snapshot()
        .documents.filter((d) => d.path.includes('viewed-'))
        .sort((a, b) => a.path.localeCompare(b.path));
    // The viewed copies are searchable (their text is read) while the scans' OCR is still under way.
    const waitStarted = performance.now();
    while (viewed().length < opens || viewed().some((d) => d.state !== 'indexed')) {
      if (performance.now() - waitStarted > 1_800_000) throw new Error('the library was not read in 30 min');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    // And OCR has begun: the opens meet the workers busy with it.
    while ((await core.ingestion.progress()).pagesToRecognize === 0) {
      if (performance.now() - waitStarted > 1_800_000) throw new Error('OCR did not start in 30 min');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${server.port}/?token=${server.token}`);
    for (const [i, doc] of viewed().entries()) {
      const drawnBefore = (await core.index.content.page(doc.id, 1)).image !== null;
      const recognizing = (await core.ingestion.progress()).pagesToRecognize;
      const open = await page.evaluate(openInPage, { token: server.token, documentId: doc.id, page: 1 });
      samples.push({ ...open, drawnBefore, recognizing });
      process.stderr.write(
        `\ropen ${i + 1}/${opens}: ${Math.round(open.ms)} ms (${open.form}), OCR pages waiting ${recognizing}   `,
      );
    }
    // The same pages again, drawn now: what is left is delivery (the answer, the bytes, the decode).
    for (const doc of viewed()) {
      const recognizing = (await core.ingestion.progress()).pagesToRecognize;
      const open = await page.evaluate(openInPage, { token: server.token, documentId: doc.id, page: 1 });
      samples.push({ ...open, drawnBefore: true, recognizing });
    }
    process.stderr.write('\n');
  } finally {
    await browser.close();
    await server.dispose();
    await core.dispose();
    await dir.cleanup();
  }
  const median = (drawn: boolean) => {
    const sorted = samples
      .filter((s) => s.drawnBefore === drawn)
      .map((s) => s.ms)
      .sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? NaN;
  };
  return {
    name: 'page-open-viewer',
    rows: samples.map((s, i) => ({
      open: i + 1,
      form: s.form,
      drawnMs: Math.round(s.ms),
      pagesGetMs: Math.round(s.callMs),
      answerChars: s.answerChars,
      alreadyDrawn: s.drawnBefore,
      ocrPagesWaiting: s.recognizing,
    })),
    details: {
      opens,
      scans,
      medianFirstOpenMs: median(false),
      medianReopenMs: median(true),
      samples,
    },
  };
}
