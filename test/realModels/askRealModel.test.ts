import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realModelsSkipReason, requireRealModel } from '../helpers/realModels';
import { tempDir } from '../helpers/shared';

const run = promisify(execFile);
const cli = join(import.meta.dirname, '..', '..', 'packages', 'cli', 'quire.mjs');
const skip = realModelsSkipReason();
if (skip) console.log(`skipped: quire ask on a real chat model (${skip})`);

/** The smallest real model that answers this reliably: the test shows the whole path on real tokens. */
const CHAT_MODEL = 'Qwen2.5-Coder-0.5B-Instruct-Q4_K_M';

interface AskJson {
  status: string;
  answer: string | null;
  citations: Array<{ path: string; page: number }>;
}

describe.skipIf(skip !== null)('quire ask end to end on a real chat model', () => {
  let library: Awaited<ReturnType<typeof tempDir>>;
  let data: Awaited<ReturnType<typeof tempDir>>;

  beforeAll(async () => {
    library = await tempDir('quire-real-ask-library-');
    data = await tempDir('quire-real-ask-data-');
    await writeFile(
      join(library.path, 'pump.txt'),
      'Maintenance record for the Zephyr-9 pump.\n' +
        "The Zephyr-9's maximum operating pressure is 42 bar.\n" +
        'Its seals are replaced every 18 months. It was installed in the north basement in 2019.\n',
    );
    await writeFile(
      join(library.path, 'cat.txt'),
      'The cat slept all afternoon on the warm windowsill, purring softly while the sun moved across the room.\n',
    );
    await run(
      process.execPath,
      [cli, 'index', library.path, '--no-images', '--no-ocr', '--json', '--data-dir', data.path],
      { timeout: 300_000 },
    );
  }, 320_000);

  afterAll(async () => {
    await library?.cleanup();
    await data?.cleanup();
  });

  it('answers from the one file that holds the figure, cites it, and exits 0', async () => {
    const model = requireRealModel('chat', CHAT_MODEL);
    // Exit code 2 (declined or unverified) rejects execFile: keep its output to report the status.
    const result = await run(
      process.execPath,
      [
        cli,
        'ask',
        'What is the maximum operating pressure of the Zephyr-9 pump?',
        '--model',
        model.path,
        '--no-clarify',
        '--json',
        '--data-dir',
        data.path,
      ],
      { timeout: 600_000, maxBuffer: 16 * 1024 * 1024 },
    ).catch((error: { stdout?: string; code?: number }) => ({
      stdout: error.stdout ?? '',
      code: error.code,
    }));
    const outcome = JSON.parse(result.stdout) as AskJson;
    expect(outcome.status, outcome.answer ?? '').toBe('answered');
    expect(outcome.answer).toMatch(/\b42\b/);
    expect(outcome.citations.map((c) => c.path)).toContain(join(library.path, 'pump.txt'));
    expect(outcome.citations.every((c) => c.path.endsWith('pump.txt'))).toBe(true);
  }, 620_000);
});
