/**
 * `quire serve` stops when told: within 2 s of SIGTERM or SIGINT, and every process it started (the
 * model host child that holds a loaded model) is gone with it; and it stops when the wrapper that
 * started it (`npx`) is killed and passes no signal on. Runs the real CLI on the tiny GGUF.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { startServe, type ServeProcess } from '../e2e/serveProcess';
import { tempDir } from '../helpers/shared';
import { writeTinyGguf } from '../helpers/tinyModel';

const hasProc = (() => {
  try {
    readdirSync('/proc/self/task');
    return true;
  } catch {
    return false;
  }
})();

/** Direct children of a process, from /proc (every thread lists the children it started). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const task of safeList(`/proc/${pid}/task`)) {
    const text = safeRead(`/proc/${pid}/task/${task}/children`);
    for (const id of text.split(/\s+/).filter(Boolean)) children.push(Number(id));
  }
  return children;
}

function descendantsOf(pid: number): number[] {
  const found: number[] = [];
  for (const child of childrenOf(pid)) found.push(child, ...descendantsOf(child));
  return found;
}

/** Running, sleeping or stopped; a zombie or a vanished pid is not alive. */
function isAlive(pid: number): boolean {
  const stat = safeRead(`/proc/${pid}/stat`);
  if (stat === '') return false;
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X';
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs: number): Promise<T> {
  const started = performance.now();
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (performance.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function exitAfter(
  serve: ServeProcess,
  signal: NodeJS.Signals,
): Promise<{ ms: number; code: number | null }> {
  return new Promise((resolve) => {
    const started = performance.now();
    serve.process.once('exit', (code) => resolve({ ms: performance.now() - started, code }));
    serve.process.kill(signal);
  });
}

/** Sends chat.ask over the serve's WebSocket, so the agent loads its model in a host child. */
async function askOverSocket(serve: ServeProcess): Promise<WebSocket> {
  const url = `ws://${new URL(serve.url).host}/ws?token=${serve.token}`;
  const ws = new WebSocket(url, { origin: serve.origin });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  ws.on('error', () => undefined);
  ws.send(
    JSON.stringify({ type: 'call', id: 1, name: 'chat.ask', input: { question: 'What is on page 1?' } }),
  );
  return ws;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.runIf(hasProc)('quire serve stopping', () => {
  if (!hasProc) console.log('skipped: no /proc on this system to count child processes');

  it('exits within 2 s of SIGTERM and leaves no child process behind', { timeout: 180_000 }, async () => {
    const dir = await tempDir('quire-serve-stop-');
    cleanups.push(() => dir.cleanup());
    const model = join(dir.path, 'tiny.gguf');
    await writeTinyGguf(model, { seed: 5 });
    const serve = await startServe(join(dir.path, 'data'), ['--model', model]);
    cleanups.push(() => serve.stop());
    const pid = serve.process.pid!;

    const ws = await askOverSocket(serve);
    cleanups.push(async () => void ws.terminate());
    const children = await until(
      'the model host child',
      () => {
        const found = descendantsOf(pid);
        return found.length > 0 ? found : undefined;
      },
      120_000,
    );
    console.log(`serve ${pid} has ${children.length} descendant process(es): ${children.join(', ')}`);

    const { ms, code } = await exitAfter(serve, 'SIGTERM');
    console.log(`serve exited ${Math.round(ms)} ms after SIGTERM with code ${code}`);
    expect(ms).toBeLessThan(2000);
    expect(code).toBe(0);
    // Killed children are reaped by whoever adopted them; give that a moment.
    const left = await until(
      'the children to go',
      () => {
        const alive = children.filter(isAlive);
        return alive.length === 0 ? alive : undefined;
      },
      2000,
    ).catch(() => children.filter(isAlive));
    expect(left).toEqual([]);
  });

  it('exits within 2 s of SIGINT', { timeout: 120_000 }, async () => {
    const dir = await tempDir('quire-serve-stop-');
    cleanups.push(() => dir.cleanup());
    const serve = await startServe(join(dir.path, 'data'));
    cleanups.push(() => serve.stop());
    const pid = serve.process.pid!;
    const { ms, code } = await exitAfter(serve, 'SIGINT');
    console.log(`serve exited ${Math.round(ms)} ms after SIGINT with code ${code}`);
    expect(ms).toBeLessThan(2000);
    expect(code).toBe(0);
    expect(descendantsOf(pid)).toEqual([]);
  });

  it('stops when the wrapper that started it is killed', { timeout: 120_000 }, async () => {
    const dir = await tempDir('quire-serve-wrapper-');
    cleanups.push(() => dir.cleanup());
    const cli = join(import.meta.dirname, '..', '..', 'packages', 'cli', 'quire.mjs');
    // A wrapper like npx: it starts serve and dies of SIGTERM without passing it on.
    const wrapper = spawn(
      process.execPath,
      [
        '-e',
        `const c = require('node:child_process').spawn(process.execPath, ${JSON.stringify([
          cli,
          'serve',
          '--port',
          '0',
          '--data-dir',
          join(dir.path, 'data'),
        ])}, { stdio: ['ignore', 'inherit', 'inherit'] }); console.log('serve pid ' + c.pid);`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LANCEDB_LOG: 'error' } },
    );
    let output = '';
    wrapper.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    wrapper.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const url = await until(
      'the address serve prints',
      () => /Open (http:\/\/\S+)/.exec(output)?.[1],
      90_000,
    );
    const pid = Number(/serve pid (\d+)/.exec(output)?.[1]);
    cleanups.push(async () => {
      if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    });
    expect((await fetch(url)).ok).toBe(true);

    wrapper.kill('SIGTERM');
    const stopped = await until(
      'the port to stop answering',
      () => (isAlive(pid) ? undefined : true),
      15_000,
    ).catch(() => false);
    const answers = await fetch(url).then(
      () => true,
      () => false,
    );
    expect({ stopped, answers }).toEqual({ stopped: true, answers: false });
    expect(output).toContain('the process that started it is gone');
  });
});
