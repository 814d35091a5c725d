/**
 * Headless Chromium started as a child of the bench, in the bench's own session, and driven over
 * CDP. Playwright's `launch` starts the browser in a session of its own, and Linux (with autogroup
 * scheduling) shares the CPU between sessions before it looks at any thread's priority: the window
 * would then get half the machine whatever the engine's priority, unlike the desktop app, whose
 * window and engine are one app in one session. Started here, `quire serve` and the window compete
 * as the desktop app's engine and window do.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

const STARTUP_MS = 30_000;

export interface SessionBrowser {
  browser: Browser;
  close(): Promise<void>;
}

export async function launchChromiumInSession(
  executablePath: string,
  args: string[],
): Promise<SessionBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'quire-bench-chromium-'));
  const child = spawn(
    executablePath,
    ['--headless', '--remote-debugging-port=0', `--user-data-dir=${profile}`, ...args, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Every error of the child is reported; the first one while starting fails the launch below.
  child.on('error', (error) => console.error('bench: Chromium:', error.message));
  try {
    const endpoint = await new Promise<string>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`Chromium did not start:\n${output}`)), STARTUP_MS);
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`Chromium exited with ${code}:\n${output}`)));
      child.stderr.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /DevTools listening on (ws:\/\/\S+)/.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
    const browser = await chromium.connectOverCDP(endpoint);
    return {
      browser,
      close: async () => {
        await browser.close().catch(() => undefined);
        child.kill('SIGTERM');
        const killLater = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(killLater);
        // The browser's helpers can still be writing to the profile as its main process exits.
        await rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch(
          (error: unknown) => console.error(`bench: Chromium's profile ${profile} is left behind:`, error),
        );
      },
    };
  } catch (error) {
    child.kill('SIGKILL');
    // A browser that never started (no such file) may not report an exit.
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 1000))]);
    await rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch(
      () => undefined,
    );
    throw error;
  }
}
