/**
 * `npm run eval -- retrieval|answers [options]`: quality on ../shared/qa/dev.jsonl, a table printed
 * (`retrieval --mode pages --page-embedder PATH.onnx` adds page search beside BM25)
 * and JSON under bench-results/. Answers use whatever decide/answer models core resolves (a running
 * Ollama or MLX server, or `--model PATH.gguf`).
 */
import { copyFile, link, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentPorts } from '../src/core/agentPorts';
import { createCore } from '../src/core/createCore';
import { sharedDir } from '../test/helpers/shared';
import type { AnswerEvalContext } from './eval-answers';
import { printTable, writeReport, type BenchReport } from './bench/report';

/**
 * A core on a temp data dir, and beside it (never inside: the data folder cannot join the library) a
 * library folder holding the questions' documents. Hard links, or copies across file systems: the
 * path policy refuses symlinks that lead out of the library.
 */
interface EvalOptions {
  modelPath: string | null;
  /** CPU threads of the in-process model (the product leaves one core free). */
  modelThreads: number | undefined;
  /** A text embedder folder: chunks are embedded before the questions, so search can be hybrid. */
  embedderPath: string | null;
  /** The agent's time limit per question, when the machine is slower than the product's default assumes. */
  wallMs: number | undefined;
}

async function createEvalContext(options: EvalOptions): Promise<AnswerEvalContext> {
  const { modelPath, modelThreads, embedderPath } = options;
  const dataDir = await mkdtemp(join(tmpdir(), 'quire-eval-'));
  const library = await mkdtemp(join(tmpdir(), 'quire-eval-library-'));
  const core = createCore({
    dataDir,
    modelPath,
    renderImages: false,
    // OCR of scanned pages would run beside the questions and take the model's cores.
    ocr: false,
    embedInBackground: false,
    embedderPath,
    ...(modelThreads ? { modelThreads } : {}),
  });
  const libraryName = (doc: string) => doc.replace(/\//g, '__');
  await core.start();
  return {
    ports: createAgentPorts(core, core.models),
    ...(options.wallMs ? { limits: { maxWallMs: options.wallMs } } : {}),
    async prepare(documents) {
      for (const doc of documents) {
        const source = join(sharedDir, doc);
        const target = join(library, libraryName(doc));
        await link(source, target).catch(() => copyFile(source, target));
      }
      await core.library.addFolder(library);
      do {
        await core.library.whenIdle();
        await core.ingestion.whenIdle();
      } while (core.library.snapshot().scanning);
      console.log(`indexed ${core.library.snapshot().documents.length} documents for the evaluation`);
      if (embedderPath) {
        core.embedding.request();
        await core.embedding.whenIdle();
        console.log(`embedded the chunks with ${embedderPath}`);
      }
    },
    documentFor(doc) {
      const path = join(library, libraryName(doc));
      return core.library.snapshot().documents.find((d) => d.path === path)?.id ?? null;
    },
    async close() {
      await core.dispose();
      await rm(dataDir, { recursive: true, force: true });
      await rm(library, { recursive: true, force: true });
    },
  };
}

const [name, ...args] = process.argv.slice(2);
let report: BenchReport;
if (name === 'retrieval') {
  report = await (await import('./eval-retrieval')).run(args);
} else if (name === 'answers') {
  const at = args.indexOf('--model');
  const modelPath = at === -1 ? (process.env.QUIRE_MODEL ?? null) : (args[at + 1] ?? null);
  const value = (flag: string) => {
    const at = args.indexOf(flag);
    return at === -1 ? undefined : args[at + 1];
  };
  const context = await createEvalContext({
    modelPath,
    modelThreads: value('--threads') ? Number(value('--threads')) : undefined,
    embedderPath: value('--embedder') ?? process.env.QUIRE_EMBEDDER ?? null,
    wallMs: value('--wall-seconds') ? Number(value('--wall-seconds')) * 1000 : undefined,
  });
  try {
    report = await (await import('./eval-answers')).run(args, context);
  } finally {
    await context.close?.();
  }
} else {
  console.error(`Usage: npm run eval -- retrieval|answers (got "${name ?? ''}")`);
  process.exit(2);
}
printTable(report.rows);
for (const note of (report.details?.notes as string[] | undefined) ?? []) console.log(note);
if (report.rows.length > 0) console.log(`written ${await writeReport(report)}`);
