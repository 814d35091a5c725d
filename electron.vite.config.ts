import { readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';

/** Every worker-thread and child-process entry in core becomes its own file beside the main bundle. */
function processEntries(dir: string): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.(worker|child)\.ts$/.test(entry.name)) {
      entries[basename(entry.name, '.ts')] = resolve(join(entry.parentPath, entry.name));
    }
  }
  return entries;
}

/**
 * The dev server injects an inline React Refresh preamble and inline styles, which the shipped CSP
 * forbids; only `electron-vite dev` gets the looser policy, builds keep the strict one.
 */
function devContentSecurityPolicy(): Plugin {
  return {
    name: 'quire-dev-csp',
    apply: 'serve',
    transformIndexHtml: (html) =>
      html
        .replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
        .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"),
  };
}

export default defineConfig({
  main: {
    build: {
      externalizeDeps: true,
      rollupOptions: {
        input: { index: resolve('src/main/index.ts'), ...processEntries('src/core') },
        output: { format: 'es', entryFileNames: '[name].js' },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload must be one CommonJS file with its dependencies bundled in.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    plugins: [react(), devContentSecurityPolicy()],
    build: {
      // The window parses all of it before it can draw the library: minified, it is about a third.
      minify: true,
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
  },
});
