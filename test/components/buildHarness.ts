/**
 * Playwright's global set-up for the component tests: builds the harness page (one panel over the
 * stand-in engine) with Vite, the same bundler and React plugin as the app, into test-results/.
 */
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { build } from 'vite';

export const HARNESS_OUT = resolve('test-results/component-harness');

export default async function buildHarness(): Promise<void> {
  await build({
    configFile: false,
    root: resolve('test/components/harness'),
    base: './',
    plugins: [react()],
    logLevel: 'warn',
    build: { outDir: HARNESS_OUT, emptyOutDir: true, minify: false, reportCompressedSize: false },
  });
}
