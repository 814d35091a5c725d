/**
 * A file name can hold terminal control sequences (clear the screen, retitle the window, a carriage
 * return that overwrites the line). Everything the CLI prints for a person shows them as `\xNN`.
 * The printers are run as units, then the real CLI on a folder holding such names.
 */
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerPrinter, sourceLines } from '../../src/core/cli/answerPrinter';
import { shown, shownLines } from '../../src/core/cli/output';
import { tempDir } from '../helpers/shared';

const cli = join(import.meta.dirname, '..', '..', 'packages', 'cli', 'quire.mjs');

/** Clear screen, set the window title (ended by BEL), and a carriage return. */
const HOSTILE = 'ansi\x1b[2J\x1b]0;PWNED\x07\r';

/** Control characters in printed text, but for the line breaks the printer writes itself. */
function controlsIn(text: string): string[] {
  return [...text]
    .filter((char) => {
      const code = char.charCodeAt(0);
      return (code < 0x20 && char !== '\n') || (code >= 0x7f && code <= 0x9f);
    })
    .map((char) => `\\x${char.charCodeAt(0).toString(16)}`);
}

describe('control characters in what the CLI prints', () => {
  it('shows every C0, DEL and C1 control as \\xNN, and keeps only line breaks in text of several lines', () => {
    const all = Array.from({ length: 0xa0 }, (_, code) => String.fromCharCode(code)).join('');
    expect(controlsIn(shown(all)).concat([...shown(all)].filter((c) => c === '\n'))).toEqual([]);
    expect(shown(HOSTILE)).toBe('ansi\\x1b[2J\\x1b]0;PWNED\\x07\\x0d');
    expect(shown('caf\u00e9 \u65e5\u672c')).toBe('caf\u00e9 \u65e5\u672c');
    expect(shownLines(`one\n${HOSTILE}`)).toBe('one\nansi\\x1b[2J\\x1b]0;PWNED\\x07\\x0d');
  });

  it("ask's sources and answer show a document's control characters, on a terminal and in a pipe", () => {
    const citation = { marker: 1, path: `/docs/${HOSTILE}.pdf`, page: 3 };
    expect(controlsIn(sourceLines([citation]).join('\n'))).toEqual([]);
    for (const isTTY of [true, false]) {
      let out = '';
      const printer = new AnswerPrinter({ write: (text: string) => (out += text), isTTY, columns: 80 });
      printer.onEvent({ type: 'token', attempt: 0, text: `It says ${HOSTILE} [1].` } as never);
      printer.onEvent({ type: 'final', answer: `It says ${HOSTILE} [1].` } as never);
      printer.finish([citation]);
      expect(controlsIn(out), JSON.stringify(out)).toEqual([]);
      expect(out).toContain('PWNED');
    }
  });
});

interface Run {
  code: number | null;
  output: string;
}

function quire(args: string[], dataDir: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args, '--data-dir', dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LANCEDB_LOG: 'error' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('the real CLI on file names with control sequences', () => {
  let folder: { path: string; cleanup: () => Promise<void> };
  let data: { path: string; cleanup: () => Promise<void> };
  let indexRun: Run;

  beforeAll(async () => {
    folder = await tempDir('quire-escapes-');
    data = await tempDir('quire-escapes-data-');
    await writeFile(join(folder.path, `${HOSTILE}.txt`), 'escape canary\n');
    // Not a PDF: indexing names it among the failures.
    await writeFile(join(folder.path, `broken${HOSTILE}.pdf`), 'not a pdf at all');
    await mkdir(join(data.path, 'models'), { recursive: true });
    indexRun = await quire(['index', folder.path, '--no-images', '--no-ocr'], data.path);
  }, 300_000);

  afterAll(async () => {
    await folder?.cleanup();
    await data?.cleanup();
  });

  it('index names the files it could not read without their control bytes', () => {
    expect(indexRun.output).toContain('broken');
    expect(controlsIn(indexRun.output), indexRun.output).toEqual([]);
  });

  const commands: [string, string[], string][] = [
    ['library list', ['library', 'list'], 'PWNED'],
    ['search', ['search', 'canary'], 'PWNED'],
    ['search --documents', ['search', 'canary', '--documents'], 'PWNED'],
  ];
  for (const [name, args, expected] of commands) {
    it(`${name} prints the names with no raw control byte`, { timeout: 120_000 }, async () => {
      const run = await quire(args, data.path);
      expect(run.code, run.output).toBe(0);
      expect(run.output).toContain(expected);
      expect(controlsIn(run.output), run.output).toEqual([]);
    });
  }

  it('collections and their paths print with no raw control byte', { timeout: 180_000 }, async () => {
    const path = join(folder.path, `${HOSTILE}.txt`);
    const made = await quire(['collections', 'create', `c${HOSTILE}`], data.path);
    const added = await quire(['collections', 'add', `c${HOSTILE}`, path], data.path);
    const listed = await quire(['collections', 'list'], data.path);
    for (const run of [made, added, listed]) {
      expect(run.code, run.output).toBe(0);
      expect(controlsIn(run.output), run.output).toEqual([]);
    }
    expect(listed.output).toContain('PWNED');
  });

  it(
    'models status names an unusable model file with no raw control byte',
    { timeout: 120_000 },
    async () => {
      const model = join(data.path, 'models', `m${HOSTILE}.gguf`);
      await writeFile(model, 'not a model');
      const run = await quire(['models', 'status', '--model', model], data.path);
      expect(run.output).toContain('PWNED');
      expect(controlsIn(run.output), run.output).toEqual([]);
    },
  );
});
