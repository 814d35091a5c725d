import { defineConfig } from '@playwright/test';
import endToEnd from './playwright.config';

/** Component tests: one panel of the renderer in Chromium over a stand-in engine (test/components). */
export default defineConfig({
  testDir: 'test/components',
  testMatch: '*.spec.ts',
  outputDir: 'test-results/components',
  globalSetup: './test/components/buildHarness.ts',
  timeout: 30_000,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/components.json' }]],
  use: { ...endToEnd.use, screenshot: 'only-on-failure', trace: 'off' },
});
