import { createWriteStream, existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DownloadManagerOptions } from '../../src/core/models/downloads/downloadManager';
import { DownloadManager } from '../../src/core/models/downloads/downloadManager';
import type { DownloadProgress } from '../../src/shared/domain/models';
import { tempDir } from '../helpers/shared';
import type { ModelHostStandIn } from '../standins/modelHostStandIn';
import { generatedFile, startModelHostStandIn } from '../standins/modelHostStandIn';
import { startOllamaStandIn, type OllamaStandIn } from '../standins/ollamaStandIn';

const FILE_BYTES = 320 * 1024;
let host: ModelHostStandIn;
let dir: { path: string; cleanup: () => Promise<void> };
let events: DownloadProgress[];

beforeAll(async () => {
  host = await startModelHostStandIn(generatedFile(FILE_BYTES));
});
afterAll(() => host.close());
beforeEach(async () => {
  dir = await tempDir('quire-downloads-');
  events = [];
  host.behaviour = { chunkBytes: 16 * 1024 };
  host.requests.length = 0;
});
afterEach(() => dir.cleanup());

/** A clock that moves 10 ms per reading, so speeds are known without waiting. */
function steppingClock() {
  let now = 0;
  return () => (now += 10);
}

function manager(options: Partial<DownloadManagerOptions> = {}) {
  return new DownloadManager({
    modelsDir: dir.path,
    onProgress: (progress) => events.push(progress),
    progressIntervalMs: 0,
    now: steppingClock(),
    ...options,
  });
}

/** Byte equality without vitest's element-by-element diff, which is slow on large buffers. */
async function sameAsHosted(path: string): Promise<boolean> {
  return Buffer.compare(await readFile(path), host.file) === 0;
}

const request = () => ({ model: 'tiny-model', url: host.url, fileName: 'model.gguf', sha256: host.sha256 });
const finalPath = () => join(dir.path, 'model.gguf');
const partialPath = () => join(dir.path, 'model.gguf.partial');

describe('DownloadManager', () => {
  it('downloads with progress, speed and ETA, verifies the checksum and moves the file into place', async () => {
    host.behaviour = { chunkBytes: 16 * 1024, delayBetweenChunksMs: 5 };
    const downloads = manager();
    downloads.start(request());
    const done = await downloads.settled('tiny-model');
    expect(done).toMatchObject({ state: 'done', bytesDone: FILE_BYTES, bytesTotal: FILE_BYTES, error: null });
    expect(await sameAsHosted(finalPath())).toBe(true);
    expect(existsSync(partialPath())).toBe(false);

    const states = events.map((event) => event.state);
    expect(states[0]).toBe('downloading');
    expect(states.at(-1)).toBe('done');
    const moving = events.filter((event) => event.state === 'downloading' && event.bytesDone > 0);
    expect(moving.length).toBeGreaterThan(3);
    const counts = moving.map((event) => event.bytesDone);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    const middle = moving[Math.floor(moving.length / 2)]!;
    expect(middle.bytesPerSecond).toBeGreaterThan(0);
    expect(middle.etaSeconds).toBeCloseTo((FILE_BYTES - middle.bytesDone) / middle.bytesPerSecond, 5);
  });

  it('resumes from a partial file with a Range request', async () => {
    await writeFile(partialPath(), host.file.subarray(0, 100_000));
    const downloads = manager();
    downloads.start(request());
    expect(await downloads.settled('tiny-model')).toMatchObject({ state: 'done' });
    expect(host.ranges()).toEqual(['bytes=100000-']);
    expect(events.find((event) => event.bytesTotal !== null)?.bytesDone).toBe(100_000);
    expect(await sameAsHosted(finalPath())).toBe(true);
  });

  it('starts over when the server ignores the Range request', async () => {
    host.behaviour = { ignoreRange: true };
    await writeFile(partialPath(), Buffer.alloc(5000, 7));
    const downloads = manager();
    downloads.start(request());
    expect(await downloads.settled('tiny-model')).toMatchObject({ state: 'done' });
    expect(await sameAsHosted(finalPath())).toBe(true);
  });

  it('pauses, keeps the partial file, and resumes where it stopped', async () => {
    host.behaviour = { chunkBytes: 16 * 1024, delayBetweenChunksMs: 15 };
    let paused = false;
    const downloads: DownloadManager = manager({
      onProgress: (progress) => {
        events.push(progress);
        if (!paused && progress.bytesDone >= 64 * 1024) {
          paused = true;
          downloads.pause('tiny-model');
        }
      },
    });
    downloads.start(request());
    const stopped = await downloads.settled('tiny-model');
    expect(stopped.state).toBe('paused');
    const kept = (await readFile(partialPath())).length;
    expect(kept).toBeGreaterThanOrEqual(64 * 1024);
    expect(kept).toBeLessThan(FILE_BYTES);

    downloads.resume('tiny-model');
    expect(await downloads.settled('tiny-model')).toMatchObject({ state: 'done', bytesDone: FILE_BYTES });
    expect(host.ranges()).toEqual([null, `bytes=${kept}-`]);
    expect(await sameAsHosted(finalPath())).toBe(true);
  });

  it('cancels and removes the partial file', async () => {
    host.behaviour = { chunkBytes: 16 * 1024, delayBetweenChunksMs: 15 };
    const hangUpsBefore = host.clientHangUps;
    const downloads = manager();
    downloads.start(request());
    await expect.poll(() => downloads.get('tiny-model').bytesDone).toBeGreaterThan(0);
    const cancelled = await downloads.cancel('tiny-model');
    expect(cancelled.state).toBe('cancelled');
    expect(existsSync(partialPath())).toBe(false);
    expect(existsSync(finalPath())).toBe(false);
    await expect.poll(() => host.clientHangUps).toBe(hangUpsBefore + 1);
  });

  it('refuses before downloading when the host states another sha256 than the one pinned', async () => {
    const downloads = manager();
    downloads.start({ ...request(), sha256: 'ab'.repeat(32) });
    const failed = await downloads.settled('tiny-model');
    expect(failed.state).toBe('failed');
    expect(failed.error).toContain(`now serves a different model.gguf (sha256 ${host.sha256})`);
    expect(failed.error).toContain('nothing was downloaded');
    expect(host.ranges()).toEqual([]);
    expect(existsSync(finalPath())).toBe(false);
  });

  it('checks a file with no pinned hash against the sha256 the host states, and deletes it on a mismatch', async () => {
    const downloads = manager();
    downloads.start({ ...request(), sha256: null });
    expect(await downloads.settled('tiny-model')).toMatchObject({ state: 'done' });
    expect(await sameAsHosted(finalPath())).toBe(true);

    const corrupted = Buffer.from(host.file);
    corrupted[1000] = corrupted[1000]! ^ 0xff;
    host.behaviour = { servedBytes: corrupted };
    downloads.start({ ...request(), id: 'again', fileName: 'again.gguf', sha256: null });
    const failed = await downloads.settled('again');
    expect(failed.state).toBe('failed');
    expect(failed.error).toContain('does not match its sha256');
    expect(failed.error).toContain(`expected ${host.sha256}`);
    expect(failed.error).toContain('the file was deleted');
    expect(existsSync(join(dir.path, 'again.gguf'))).toBe(false);
    expect(existsSync(join(dir.path, 'again.gguf.partial'))).toBe(false);
  });

  it('verifies a resumed download over the whole file, the part on disk included', async () => {
    await writeFile(partialPath(), Buffer.alloc(100_000, 7));
    const downloads = manager();
    downloads.start({ ...request(), sha256: null });
    const failed = await downloads.settled('tiny-model');
    expect(host.ranges()).toEqual(['bytes=100000-']);
    expect(failed).toMatchObject({ state: 'failed' });
    expect(failed.error).toContain('does not match its sha256');
    expect(existsSync(partialPath())).toBe(false);
  });

  it('refuses a file whose host states no hash when none is pinned', async () => {
    host.behaviour = { statesNoHash: true };
    const downloads = manager();
    downloads.start({ ...request(), sha256: null });
    const failed = await downloads.settled('tiny-model');
    expect(failed.error).toMatch(/states no sha256 for model\.gguf and none is published/);
    expect(host.ranges()).toEqual([]);
  });

  it('refuses to start when the disk has too little free space', async () => {
    const downloads = manager({ freeBytes: async () => 10_000 });
    downloads.start(request());
    const failed = await downloads.settled('tiny-model');
    expect(failed.state).toBe('failed');
    expect(failed.error).toMatch(/^Not enough disk space for tiny-model/);
    expect(existsSync(partialPath())).toBe(false);
  });

  it('reports a full disk when a write fails with ENOSPC, and resumes once there is room', async () => {
    const limit = 48 * 1024;
    const fullDisk = (path: string, append: boolean): Writable => {
      const file = createWriteStream(path, { flags: append ? 'a' : 'w' });
      let written = 0;
      return new Writable({
        write(chunk: Buffer, _encoding, callback) {
          if (written + chunk.length > limit) {
            // Like a real disk: what fits is written, then the write fails.
            const fits = chunk.subarray(0, limit - written);
            written = limit;
            const noSpace = Object.assign(new Error('ENOSPC: no space left on device, write'), {
              code: 'ENOSPC',
            });
            file.write(fits, () => callback(noSpace));
            return;
          }
          written += chunk.length;
          file.write(chunk, callback);
        },
        final(callback) {
          file.end(callback);
        },
        destroy(error, callback) {
          file.end(() => callback(error));
        },
      });
    };
    const downloads = manager({ openWrite: fullDisk });
    downloads.start(request());
    const failed = await downloads.settled('tiny-model');
    expect(failed.state).toBe('failed');
    expect(failed.error).toMatch(/disk .* is full/);

    await expect.poll(async () => (await readFile(partialPath())).length).toBe(limit);
    const roomy = manager();
    roomy.start(request());
    expect(await roomy.settled('tiny-model')).toMatchObject({ state: 'done' });
    expect(await sameAsHosted(finalPath())).toBe(true);
  });

  it('checks a small file kept in git against the git blob id the host states', async () => {
    const config = Buffer.from('{"image_seq_len": 64}\n');
    const small = await startModelHostStandIn([
      { path: 'org/pages/resolve/main/processor_config.json', bytes: config, storage: 'git' },
    ]);
    try {
      const downloads = manager();
      downloads.start({
        model: 'config',
        url: small.url,
        fileName: 'pages/processor_config.json',
        sha256: null,
      });
      expect(await downloads.settled('config')).toMatchObject({ state: 'done' });
      expect(await readFile(join(dir.path, 'pages', 'processor_config.json'), 'utf8')).toBe(
        config.toString(),
      );

      small.behaviour = { servedBytes: Buffer.from('{"image_seq_len": 65}\n') };
      downloads.start({ id: 'bad', model: 'config', url: small.url, fileName: 'bad.json', sha256: null });
      const failed = await downloads.settled('bad');
      expect(failed.error).toContain('does not match its git blob id');
      expect(existsSync(join(dir.path, 'bad.json'))).toBe(false);
    } finally {
      await small.close();
    }
  });
});

describe('DownloadManager with Ollama pulls', () => {
  let ollama: OllamaStandIn;
  beforeAll(async () => {
    ollama = await startOllamaStandIn([]);
  });
  afterAll(() => ollama.close());

  it('pulls through /api/pull with its streamed progress, pauses, resumes where Ollama stopped, and lists the model', async () => {
    ollama.library.set('qwen3:4b', {
      model: { name: 'qwen3:4b', capabilities: ['completion'] },
      layers: [600_000, 4_000],
      stepBytes: 100_000,
      delayMs: 10,
    });
    let paused = false;
    const downloads: DownloadManager = manager({
      onProgress: (progress) => {
        events.push(progress);
        if (!paused && progress.bytesDone >= 200_000) {
          paused = true;
          downloads.pause('ollama:qwen3:4b');
        }
      },
    });
    downloads.start({ kind: 'ollama', id: 'ollama:qwen3:4b', model: 'qwen3:4b', endpoint: ollama.baseUrl });
    expect(await downloads.settled('ollama:qwen3:4b')).toMatchObject({ state: 'paused', source: 'ollama' });
    const stoppedAt = [...ollama.pulled.values()].reduce((sum, bytes) => sum + bytes, 0);
    expect(stoppedAt).toBeGreaterThanOrEqual(200_000);
    expect(stoppedAt).toBeLessThan(604_000);

    downloads.resume('ollama:qwen3:4b');
    expect(await downloads.settled('ollama:qwen3:4b')).toMatchObject({ state: 'done', bytesDone: 604_000 });
    const resumed = events.filter((event) => event.state === 'downloading' && event.bytesDone > 0);
    // Progress is the sum over layers, and the resumed pull starts from what Ollama kept.
    expect(resumed.map((event) => event.bytesTotal)).toContain(604_000);
    expect(ollama.models.map((model) => model.name)).toContain('qwen3:4b');
    const bodies = ollama.requests.filter((entry) => entry.path === '/api/pull').map((entry) => entry.body);
    expect(bodies).toEqual([
      { model: 'qwen3:4b', stream: true },
      { model: 'qwen3:4b', stream: true },
    ]);
  });

  it('reports Ollama’s own error for a model its library does not have', async () => {
    const downloads = manager();
    downloads.start({ kind: 'ollama', id: 'missing', model: 'no-such-model:1b', endpoint: ollama.baseUrl });
    const failed = await downloads.settled('missing');
    expect(failed.state).toBe('failed');
    expect(failed.error).toBe(
      'Ollama could not pull `no-such-model:1b`: pull model manifest: file does not exist',
    );
  });
});
