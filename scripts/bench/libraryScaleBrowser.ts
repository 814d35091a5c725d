/**
 * The library list of a large library in real Chromium, for `bench -- library-scale`: `quire serve`
 * opens the data folder the bench indexed; the page is loaded and timed until its first document row
 * is painted; then files are changed on disk so progress and library changes stream in while the
 * longest frame is measured (the largest gap between animation frames).
 */
import { existsSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startServe } from '../../test/e2e/serveProcess';
import { launchChromiumInSession } from './chromiumInSession';

const CHROMIUM_PATHS = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'];
/**
 * Start-up work of Chromium's own that a window of the app never shares: headless Chromium still
 * preloads its WebUI omnibox popup, a renderer that evaluates its own scripts on the same cores
 * while the measured page starts (seen in a trace of the cold start).
 */
const BROWSER_UI_FEATURES = [
  'PreloadTopChromeWebUI',
  'WebUIOmniboxPopup',
  'WebUIOmniboxFullPopup',
  'WebUIOmniboxAimPopup',
];
/**
 * The page notes its own first row, in the animation frame that will paint it: polling from here
 * would inject Playwright's script into the page (about 50 ms of its main thread) while it starts.
 */
const FIRST_ROW_WATCH = `(() => {
  const check = () => {
    const row = document.querySelector('[data-testid="document-item"]');
    if (row) window.quireBenchFirstRow(performance.now());
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})()`;
/** How long frames are watched while the library changes. */
const WATCH_MS = 15_000;

export interface ListInBrowser {
  /**
   * From navigation start to the first document row painted, in a browser just started on a
   * `quire serve` just started: the median of the cold starts.
   */
  firstRowMs: number;
  /** Of that start, the part after the app's script had arrived: evaluating, drawing. */
  firstRowAfterScriptMs: number;
  /** Every cold start's first row, in the order they were measured (the first right after indexing). */
  coldFirstRowsMs: number[];
  /** The same after a reload (the browser warm, as when a window is opened again), median of three. */
  firstRowReloadedMs: number;
  /** The longest frame while files were being re-read (gap between animation frames). */
  longestFrameMs: number;
  /** Frames seen in that window, for context. */
  frames: number;
  changedFiles: number;
}

/** Cold starts measured, each a fresh `quire serve` and browser: one alone says little on two busy cores. */
const COLD_STARTS = 3;

/**
 * `images`: whether `quire serve` draws page images, as the indexing phase did: a library indexed as
 * text only would otherwise start drawing every page of it while the list is measured.
 */
export async function measureListInChromium(
  dataDir: string,
  changed: readonly string[],
  { images }: { images: boolean },
): Promise<ListInBrowser> {
  const serveArgs = images ? [] : ['--no-images'];
  const colds: Array<{ firstRow: number; scriptArrived: number }> = [];
  for (let i = 1; i < COLD_STARTS; i++) {
    const window = await openWindow(dataDir, serveArgs);
    colds.push(window.cold);
    await window.close();
  }
  // The last cold start goes on: reloads, then frames while files change.
  const { cold, page, firstRows, close } = await openWindow(dataDir, serveArgs);
  colds.push(cold);
  try {
    const reloaded: number[] = [];
    for (let i = 0; i < 3; i++) {
      const next = firstRows.next();
      await page.reload();
      reloaded.push((await firstRowPainted(page, next)).firstRow);
    }
    reloaded.sort((a, b) => a - b);
    // Frames are watched once the window has finished opening (every page of the list in, the chat
    // drawn), so the longest frame is one of the library changing, not of the window starting.
    await page.waitForFunction(
      `!document.querySelector('[data-testid="folder-count"][aria-busy="true"]')`,
      undefined,
      {
        timeout: 120_000,
      },
    );
    await page.getByTestId('question-input').waitFor({ timeout: 120_000 });
    await page.evaluate(`{
      const state = { last: 0, longest: 0, frames: 0, on: true };
      window.frameWatch = state;
      const tick = (now) => {
        if (state.last) state.longest = Math.max(state.longest, now - state.last);
        state.last = now;
        state.frames++;
        if (state.on) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    }`);
    // Changed files are read again: the queue's progress and the library's changes stream to the page.
    for (const path of changed) await appendFile(path, '\n<!-- edited -->\n');
    await page.waitForTimeout(WATCH_MS);
    const watch = (await page.evaluate(
      `(() => { window.frameWatch.on = false; return { longest: window.frameWatch.longest, frames: window.frameWatch.frames }; })()`,
    )) as { longest: number; frames: number };
    const median = [...colds].sort((a, b) => a.firstRow - b.firstRow)[Math.floor(colds.length / 2)]!;
    return {
      firstRowMs: median.firstRow,
      firstRowAfterScriptMs: median.firstRow - median.scriptArrived,
      coldFirstRowsMs: colds.map((start) => start.firstRow),
      firstRowReloadedMs: reloaded[1]!,
      longestFrameMs: watch.longest,
      frames: watch.frames,
      changedFiles: changed.length,
    };
  } finally {
    await close();
  }
}

/** A fresh `quire serve` and a browser just started, opened on it and timed to its first row. */
async function openWindow(dataDir: string, serveArgs: string[]) {
  const executablePath = process.env.QUIRE_CHROMIUM ?? CHROMIUM_PATHS.find((path) => existsSync(path));
  if (!executablePath) throw new Error('No Chromium here: install Debian chromium or set QUIRE_CHROMIUM.');
  const serve = await startServe(dataDir, serveArgs);
  const browser = await launchChromiumInSession(executablePath, [
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    `--disable-features=${BROWSER_UI_FEATURES.join(',')}`,
  ]).catch(async (error: unknown) => {
    await serve.stop();
    throw error;
  });
  const close = async () => {
    try {
      await browser.close();
    } finally {
      await serve.stop();
    }
  };
  try {
    // The app's CSP forbids evaluating text; the measuring code is the harness's, not the app's.
    const context = await browser.browser.newContext({
      viewport: { width: 1440, height: 900 },
      bypassCSP: true,
    });
    const page = await context.newPage();
    const firstRows = new FirstRows();
    await page.exposeFunction('quireBenchFirstRow', (at: number) => firstRows.note(at));
    await page.addInitScript(FIRST_ROW_WATCH);
    const next = firstRows.next();
    await page.goto(serve.url);
    const cold = await firstRowPainted(page, next);
    return { cold, page, firstRows, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The first-row times the page reports, one per page load. */
class FirstRows {
  private waiting: ((at: number) => void) | null = null;

  next(): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('No document row was drawn within 120 s.')), 120_000);
      this.waiting = (at) => {
        clearTimeout(timer);
        resolve(at);
      };
    });
  }

  note(at: number): void {
    this.waiting?.(at);
    this.waiting = null;
  }
}

/** When the first document row was painted and when the app's script had arrived, from navigation start. */
async function firstRowPainted(
  page: Page,
  reported: Promise<number>,
): Promise<{ firstRow: number; scriptArrived: number }> {
  const firstRow = await reported;
  // In-page code is passed as text: it runs in the page, not in this process. The app's script is the
  // page's own module script; the chunks it loads once the rows are painted are not part of it.
  const scriptArrived = (await page.evaluate(
    `performance.getEntriesByName(document.querySelector('script[type="module"][src]').src)[0].responseEnd`,
  )) as number;
  return { firstRow, scriptArrived };
}

/** Files the browser phase edits: the HTML and Markdown ones, which can take an appended comment. */
export function editableFiles(folder: string, names: readonly string[], count: number): string[] {
  return names
    .filter((name) => name.endsWith('.md') || name.endsWith('.html'))
    .slice(0, count)
    .map((name) => join(folder, name));
}
