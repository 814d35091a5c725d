/**
 * `npm run bench -- language [--files N]`: what detecting a document's language adds to reading it.
 * Corpus PDFs (round-robin over sources) are read with the project's reader, then their language is
 * detected from the page text; reading is the baseline the detection is compared with, per file, in
 * this process. Also: loading the detector and judging the written questions.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseDocument } from '../../src/core/documents/parseDocument';
import { corpusDir } from '../../test/helpers/shared';
import { QUESTIONS } from '../../test/language/samples';
import { option, pickFiles, readablePdfs } from './extract';
import type { BenchReport } from './report';

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

export async function run(args: string[]): Promise<BenchReport> {
  const files = pickFiles(readablePdfs(), option(args, '--files', 40));
  const rssBefore = process.memoryUsage().rss;
  const loadStarted = performance.now();
  const { detectDocumentLanguage, detectQuestionLanguage } =
    await import('../../src/core/language/detectLanguage');
  detectDocumentLanguage([
    'Warm-up text so the first measured call does not pay for compiling the detector.',
  ]);
  const loadMs = performance.now() - loadStarted;
  const rssAdded = process.memoryUsage().rss - rssBefore;

  const readMs: number[] = [];
  const detectMs: number[] = [];
  const languages = new Map<string, number>();
  let pages = 0;
  for (const file of files) {
    const started = performance.now();
    let texts: string[];
    try {
      texts = (await parseDocument(join(corpusDir, file.localPath), { kind: 'pdf' })).pages.map(
        (p) => p.text,
      );
    } catch {
      continue;
    }
    readMs.push(performance.now() - started);
    pages += texts.length;
    const detectStarted = performance.now();
    const language = detectDocumentLanguage(texts);
    detectMs.push(performance.now() - detectStarted);
    languages.set(language, (languages.get(language) ?? 0) + 1);
  }
  const questionMs: number[] = [];
  for (let round = 0; round < 20; round++) {
    for (const question of QUESTIONS) {
      const started = performance.now();
      detectQuestionLanguage(question.text);
      questionMs.push(performance.now() - started);
    }
  }
  return {
    name: 'language',
    rows: [
      {
        files: readMs.length,
        pages,
        readMeanMs: mean(readMs),
        detectMeanMs: mean(detectMs),
        detectP95Ms: percentile(detectMs, 95),
        detectVsRead: mean(detectMs) / Math.max(1e-9, mean(readMs)),
        questionP95Ms: percentile(questionMs, 95),
        loadMs,
        rssAddedMB: rssAdded / 1e6,
      },
    ],
    details: { languages: Object.fromEntries(languages), load: (await import('node:os')).loadavg() },
  };
}
