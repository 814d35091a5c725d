#!/usr/bin/env node
/**
 * `npm test`: typecheck, lint, build, the installer checks (`check:package`), unit and integration
 * tests (vitest), component tests (one renderer panel in Chromium over a stand-in engine), end-to-end
 * tests (Playwright in Chromium). Every stage runs even when an earlier one failed; the last line is the
 * total: `N passed, N failed, N skipped`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
// Tests that skip for want of the corpus append their one line here (test/helpers/shared.ts), to be
// repeated at the end, where they are not lost in the stages' output.
const skipLogDir = mkdtempSync(join(tmpdir(), 'quire-test-skips-'));
const skipLog = join(skipLogDir, 'skipped.txt');

function run(label, command, args) {
  console.log(`\n=== ${label}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, LANCEDB_LOG: 'error', QUIRE_SKIP_LOG: skipLog },
    // npm and npx are .cmd scripts on Windows, which only a shell runs.
    shell: process.platform === 'win32',
  });
  return result.status === 0;
}

/** A stage that is one check: it passes or fails as a whole. */
function check(label, command, args) {
  if (run(label, command, args)) totals.passed++;
  else {
    totals.failed++;
    failures.push(label);
  }
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

/** A stage that runs many tests and reports them in a JSON file. */
function suite(label, command, args, reportPath, count) {
  rmSync(reportPath, { force: true });
  const ok = run(label, command, args);
  const report = readJson(reportPath);
  if (!report) {
    totals.failed++;
    failures.push(`${label} (no report)`);
    return;
  }
  const counts = count(report);
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  totals.skipped += counts.skipped;
  if (counts.failed > 0 || !ok) failures.push(label);
  if (!ok && counts.failed === 0) {
    totals.failed++;
  }
}

/** The suite is meant for the one Node in .nvmrc; another one still runs it, and says so first. */
function noteNodeVersion() {
  const wanted = readFileSync('.nvmrc', 'utf8').trim();
  if (process.versions.node !== wanted) {
    console.log(
      `Note: running on Node ${process.versions.node}; the project runs on Node ${wanted} (.nvmrc).`,
    );
  }
}

/** One block per reason (`reason<TAB>what` lines), each skipped group named once. */
function summarizeSkips() {
  const lines = existsSync(skipLog) ? readFileSync(skipLog, 'utf8').trim().split('\n') : [];
  rmSync(skipLogDir, { recursive: true, force: true });
  const byReason = new Map();
  for (const line of lines) {
    const [reason, what] = line.split('\t');
    if (!reason || !what) continue;
    byReason.set(reason, new Set([...(byReason.get(reason) ?? []), what]));
  }
  for (const [reason, whats] of byReason) {
    console.log(`Skipped (${reason}):`);
    for (const what of whats) console.log(`  ${what}`);
  }
}

noteNodeVersion();
mkdirSync('test-results', { recursive: true });
check('typecheck', 'npm', ['run', '-s', 'typecheck']);
check('lint', 'npm', ['run', '-s', 'lint']);
check('build', 'npx', ['electron-vite', 'build']);
// The CLI tests run `quire` from its build: a fresh one.
check('CLI build', 'node', ['packages/cli/build.mjs']);
check('Electron security audit (electronegativity)', 'npm', ['run', '-s', 'audit:security']);
check('package and workflow checks', 'npm', ['run', '-s', 'check:package']);

suite(
  'unit and integration tests',
  'npx',
  ['vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=test-results/vitest.json'],
  'test-results/vitest.json',
  (r) => ({
    passed: r.numPassedTests ?? 0,
    failed: (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0),
    skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
  }),
);

/** Playwright's JSON report, counted the same way for every Playwright stage. */
function playwrightCounts(r) {
  return {
    passed: r.stats?.expected ?? 0,
    failed: (r.stats?.unexpected ?? 0) + (r.stats?.flaky ?? 0),
    skipped: r.stats?.skipped ?? 0,
  };
}

suite(
  'component tests',
  'npx',
  ['playwright', 'test', '--config', 'playwright.components.config.ts'],
  'test-results/components.json',
  playwrightCounts,
);

if (existsSync('out/renderer/index.html')) {
  suite('end-to-end tests', 'npx', ['playwright', 'test'], 'test-results/playwright.json', playwrightCounts);
} else {
  totals.failed++;
  failures.push('end-to-end tests (no renderer build)');
}

console.log('');
summarizeSkips();
if (failures.length > 0) console.log(`Failed: ${failures.join(', ')}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
