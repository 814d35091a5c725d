import { defineConfig } from '@playwright/test';

/** The packaged-app test (`npm run test:packaged`): one Electron app at a time, slow first starts allowed. */
export default defineConfig({
  testDir: 'test/packaged',
  outputDir: 'test-results/packaged',
  timeout: 300_000,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/packaged.json' }]],
  use: { screenshot: 'only-on-failure', trace: 'retain-on-failure' },
});
