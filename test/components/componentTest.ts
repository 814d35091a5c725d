/**
 * The `openPanel` fixture of the component tests: opens the harness page in Chromium with one panel over
 * the stand-in engine, and hands back what the test can tell that engine. Any uncaught error in the
 * page (a broken contract in the stand-in included) fails the test.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import type { z } from 'zod';
import type { CallName, EventName, events } from '../../src/shared/ipc/contract';
import { PAGE_IMAGE_SCHEME } from '../../src/shared/domain/pageImageAddress';
import { HARNESS_OUT } from './buildHarness';
import {
  SETUP_KEY,
  type HarnessSetup,
  type RecordedCall,
  type StandInAnswer,
  type StandInControl,
} from './harness/control';
import { pagePicture } from './pagePicture';

/** Served by the test itself (page.route): no server process, no network. */
const ORIGIN = 'http://harness.quire.test';

export interface StandIn {
  /** The calls made so far, of one name or all. */
  calls(name?: CallName): Promise<unknown[]>;
  /** The inputs of the calls of that name the page cancelled. */
  cancelled(name: CallName): Promise<unknown[]>;
  respond(name: CallName, answer: StandInAnswer): Promise<void>;
  hold(name: CallName): Promise<void>;
  release(name: CallName): Promise<void>;
  emit<E extends EventName>(event: E, payload: z.input<(typeof events)[E]>): Promise<void>;
}

/** The page's global object, as the harness sets it up; the functions below run in the page. */
type HarnessWindow = { standIn: StandInControl };

function standInOf(page: Page): StandIn {
  return {
    calls: (name) =>
      page.evaluate(
        ({ name }) =>
          (globalThis as unknown as HarnessWindow).standIn.calls
            .filter((call: RecordedCall) => name === null || call.name === name)
            .map((call: RecordedCall) => call.input),
        { name: name ?? null },
      ),
    cancelled: (name) =>
      page.evaluate(
        ({ name }) =>
          (globalThis as unknown as HarnessWindow).standIn.calls
            .filter((call: RecordedCall) => call.name === name && call.cancelled === true)
            .map((call: RecordedCall) => call.input),
        { name },
      ),
    respond: (name, answer) =>
      page.evaluate(
        ({ name, answer }) => (globalThis as unknown as HarnessWindow).standIn.respond(name, answer),
        { name, answer },
      ),
    hold: (name) =>
      page.evaluate(({ name }) => (globalThis as unknown as HarnessWindow).standIn.hold(name), { name }),
    release: (name) =>
      page.evaluate(({ name }) => (globalThis as unknown as HarnessWindow).standIn.release(name), { name }),
    emit: (event, payload) =>
      page.evaluate(
        ({ event, payload }) => (globalThis as unknown as HarnessWindow).standIn.emit(event, payload),
        { event, payload: payload as unknown },
      ),
  };
}

export const test = base.extend<{ openPanel: (setup: HarnessSetup) => Promise<StandIn> }>({
  openPanel: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      // The client drops an event that breaks the contract with a warning: here that is a failure.
      if (message.type() === 'error' || message.text().includes('dropped an invalid')) {
        errors.push(message.text());
      }
    });
    await page.route(`${ORIGIN}/**`, async (route) => {
      const path = new URL(route.request().url()).pathname;
      const file = join(HARNESS_OUT, path === '/' ? 'index.html' : path);
      if (existsSync(file)) await route.fulfill({ path: file });
      else await route.fulfill({ status: 404, body: 'Not in the harness build.' });
    });
    // Page images come over the app's own scheme, as in Electron: one picture per page number.
    await page.route(`${PAGE_IMAGE_SCHEME}://**`, async (route) => {
      const number = /^quire-page:\/\/image\/[\w-]+\/(\d+)\/(full|thumbnail)/.exec(route.request().url());
      if (number)
        await route.fulfill({ contentType: 'image/png', body: await pagePicture(Number(number[1])) });
      else await route.fulfill({ status: 400, body: 'Not a page image address.' });
    });
    await use(async (setup) => {
      await page.addInitScript(
        ({ key, value }) => {
          (globalThis as unknown as Record<string, unknown>)[key] = value;
        },
        { key: SETUP_KEY, value: setup },
      );
      await page.goto(`${ORIGIN}/`);
      return standInOf(page);
    });
    expect(errors, 'errors in the page').toEqual([]);
  },
});

export { expect };
