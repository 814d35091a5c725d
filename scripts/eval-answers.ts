/**
 * `npm run eval -- answers [--limit N] [--sample N] [--source S] [--qa FILE] [--bounds] [--progress FILE [--resume]]`: answer quality
 * of the agent on the dev questions with whatever decide/answer models are configured: accuracy
 * (normalised match, numbers compared numerically), recall of the gold pages among the cited pages,
 * unanswerable questions correctly declined, answer statuses, decisions that parsed, the gate's
 * verdicts, mean tool calls, seconds per question and generated tokens per second. `--bounds` also
 * asks the same answer model each question with its gold pages handed to it (its ceiling) and with no
 * retrieval (its floor), so the table says whether retrieval or the model limits the answers.
 * `--resume` reads the progress file a stopped run left, asks only what it lacks and reports the whole.
 * Prints a table and writes JSON under bench-results/.
 *
 * The agent needs an index holding the questions' documents and configured models: both come from an
 * `AnswerEvalContext` passed to `run`, so this script never builds a core of its own.
 */
import { appendFile, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { analyzeQuestion } from '../src/core/agent/constraints';
import { DEFAULT_LIMITS, type AgentLimits } from '../src/core/agent/limits';
import type { AgentPorts } from '../src/core/agent/ports';
import { answerMessages } from '../src/core/agent/prompts';
import { runAgent, type RunOutcome } from '../src/core/agent/runAgent';
import { createState } from '../src/core/agent/state';
import { disclosesInsufficiency } from '../src/core/agent/validation';
import type { ChatModel } from '../src/core/models/types';
import { sharedDir } from '../test/helpers/shared';
import { printTable, writeReport, type BenchReport } from './bench/report';

export interface AnswerEvalContext {
  /** Ports over an index of the corpus and the configured models. */
  ports: AgentPorts;
  /** Indexes these documents (paths relative to the shared folder) before the questions are asked. */
  prepare?(documents: string[]): Promise<void>;
  limits?: Partial<AgentLimits>;
  /** The library's id for a question's document (path relative to the shared folder), once prepared. */
  documentFor?(doc: string): string | null;
  close?(): Promise<void>;
}

export interface QaItem {
  id: string;
  source: string;
  question: string;
  answer: string;
  /** Relative to the shared folder, e.g. `corpus/financebench/3M_2022_10K.pdf`. */
  doc: string;
  gold_pages: number[];
  answerable: boolean;
}

export interface QuestionResult {
  id: string;
  source: string;
  answerable: boolean;
  status: RunOutcome['status'];
  correct: boolean;
  declined: boolean;
  /** Null when the question has no gold pages. */
  pageRecall: number | null;
  toolCalls: number;
  seconds: number;
  answer: string | null;
  /** Why the run failed, when it did. */
  error: string | null;
  /** Decisions the decide model wrote that parsed, and ones that did not (the run fell back). */
  decisionsParsed: number;
  decisionsUnparsed: number;
  /** The gate's verdict on each draft, in order. */
  gateVerdicts: boolean[];
  /** Tokens the chat models generated for this question, and the seconds they took. */
  outputTokens: number;
  generationSeconds: number;
}

/** The model alone on one question: with its gold pages handed to it (ceiling), or with nothing (floor). */
export interface BoundResult {
  id: string;
  answerable: boolean;
  ceilingCorrect: boolean | null;
  floorCorrect: boolean;
}

export const NO_MODEL_MESSAGE = 'no model configured';

/** Lowercase, punctuation and articles gone, numbers without thousands separators. */
export function normalizeAnswer(text: string): string {
  return text
    .toLowerCase()
    .replace(/(\d),(?=\d{3}\b)/g, '$1')
    .replace(/[^\p{L}\p{N}.%-]+/gu, ' ')
    .replace(/(?<!\d)\.|\.(?!\d)/g, ' ')
    .replace(/\b(?:a|an|the)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Every number written in the text: "1,234.5" is 1234.5, "-3" is -3, "$2.1" is 2.1. */
export function numbersIn(text: string): number[] {
  const matches = text.replace(/(\d),(?=\d{3}\b)/g, '$1').match(/-?\d+(?:\.\d+)?/g) ?? [];
  return matches.map(Number).filter(Number.isFinite);
}

function sameNumber(a: number, b: number): boolean {
  return Math.abs(a - b) <= 0.01 * Math.max(1, Math.abs(b));
}

function tokenF1(prediction: string, gold: string): number {
  const p = prediction.split(' ').filter(Boolean);
  const g = gold.split(' ').filter(Boolean);
  if (p.length === 0 || g.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const t of g) counts.set(t, (counts.get(t) ?? 0) + 1);
  let overlap = 0;
  for (const t of p) {
    const left = counts.get(t) ?? 0;
    if (left > 0) {
      overlap++;
      counts.set(t, left - 1);
    }
  }
  if (overlap === 0) return 0;
  const precision = overlap / p.length;
  const recall = overlap / g.length;
  return (2 * precision * recall) / (precision + recall);
}

/**
 * Short gold answers must appear in the prediction (numbers compared numerically); long ones, which
 * explain a figure, count when most of their numbers appear, a yes/no agrees, or the words overlap.
 */
export function answerMatches(prediction: string, gold: string): boolean {
  const p = normalizeAnswer(prediction);
  const g = normalizeAnswer(gold);
  if (g === '' || p === '') return false;
  if (` ${p} `.includes(` ${g} `)) return true;
  const allGoldNumbers = numbersIn(gold);
  // Years and fiscal years frame a long answer; the figures are what it is about.
  const figures = allGoldNumbers.filter((n) => !(Number.isInteger(n) && n >= 1900 && n <= 2100));
  const goldNumbers = figures.length > 0 ? figures : allGoldNumbers;
  const predicted = numbersIn(prediction.replace(/\[\d[^\]]*\]/g, ' '));
  const found = goldNumbers.filter((n) => predicted.some((m) => sameNumber(m, n))).length;
  const short = g.split(' ').length <= 8;
  if (short)
    return allGoldNumbers.length > 0 && allGoldNumbers.every((n) => predicted.some((m) => sameNumber(m, n)));
  const polarity = /^(yes|no)\b/.exec(g)?.[1];
  if (polarity && !new RegExp(`^${polarity}\\b`).test(p)) return false;
  if (goldNumbers.length > 0) return found >= Math.ceil(goldNumbers.length / 2);
  return polarity !== undefined || tokenF1(p, g) >= 0.5;
}

export function scoreQuestion(
  item: QaItem,
  outcome: RunOutcome,
  seconds: number,
  usage?: Usage,
): QuestionResult {
  const answer = outcome.answer ?? '';
  const shown = outcome.status === 'answered' || outcome.status === 'unverified';
  const declined =
    outcome.status === 'declined' ||
    (shown && (disclosesInsufficiency(answer) || /\bnot answerable\b/i.test(answer)));
  const cited = new Set(
    outcome.citations.filter((c) => basename(c.path) === basename(item.doc)).map((c) => c.page),
  );
  const pageRecall =
    item.gold_pages.length === 0
      ? null
      : item.gold_pages.filter((p) => cited.has(p)).length / item.gold_pages.length;
  return {
    id: item.id,
    source: item.source,
    answerable: item.answerable,
    status: outcome.status,
    correct: item.answerable ? shown && answerMatches(answer, item.answer) : declined,
    declined,
    pageRecall,
    toolCalls: outcome.events.filter((e) => e.type === 'decision' && e.tool !== 'answer').length,
    seconds,
    answer: outcome.answer,
    error: outcome.error,
    decisionsParsed: outcome.events.filter((e) => e.type === 'decision' && e.source === 'model').length,
    decisionsUnparsed: outcome.events.filter(
      (e) => e.type === 'error' && e.tool === null && e.suggestion === UNPARSED_DECISION_SUGGESTION,
    ).length,
    gateVerdicts: outcome.events.flatMap((e) => (e.type === 'validation' ? [e.passed] : [])),
    outputTokens: usage?.outputTokens ?? 0,
    generationSeconds: usage?.seconds ?? 0,
  };
}

/** What the run records when a decision does not parse (agentRun's recoverable error). */
const UNPARSED_DECISION_SUGGESTION = 'Reply with one JSON object that follows the schema.';

interface Usage {
  outputTokens: number;
  seconds: number;
}

/** The same model roles, with every chat call's generated tokens and time added to `usage`. */
function countingRoles(models: AgentPorts['models'], usage: Usage): AgentPorts['models'] {
  const wrap = (model: ChatModel | null): ChatModel | null =>
    model && {
      id: model.id,
      provider: model.provider,
      supportsImages: model.supportsImages,
      async chat(request) {
        const started = performance.now();
        const response = await model.chat(request);
        usage.seconds += (performance.now() - started) / 1000;
        usage.outputTokens += response.outputTokens ?? 0;
        return response;
      },
    };
  return { chatModel: async (role) => wrap(await models.chatModel(role)) };
}

const mean = (values: number[]) =>
  values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;

export function summarize(results: QuestionResult[], label: string): Record<string, string | number | null> {
  const answerable = results.filter((r) => r.answerable);
  const unanswerable = results.filter((r) => !r.answerable);
  const recalls = answerable.map((r) => r.pageRecall).filter((r): r is number => r !== null);
  return {
    set: label,
    questions: results.length,
    accuracy: mean(answerable.map((r) => Number(r.correct))),
    pageRecall: mean(recalls),
    declinedUnanswerable: mean(unanswerable.map((r) => Number(r.declined))),
    falselyDeclined: mean(answerable.map((r) => Number(r.declined))),
    meanToolCalls: mean(results.map((r) => r.toolCalls)),
    meanSeconds: mean(results.map((r) => r.seconds)),
    verified: mean(answerable.map((r) => Number(r.status === 'answered'))),
    failed: results.filter((r) => r.status === 'failed' || r.status === 'cancelled').length,
    statuses: statusCounts(results),
    decisionsParsed: ratio(
      sum(results.map((r) => r.decisionsParsed)),
      sum(results.map((r) => r.decisionsParsed + r.decisionsUnparsed)),
    ),
    gatePassed: ratio(
      sum(results.map((r) => r.gateVerdicts.filter(Boolean).length)),
      sum(results.map((r) => r.gateVerdicts.length)),
    ),
    outTokensPerChatSecond: ratio(
      sum(results.map((r) => r.outputTokens)),
      sum(results.map((r) => r.generationSeconds)),
    ),
  };
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const ratio = (part: number, whole: number) => (whole === 0 ? null : part / whole);

/** "answered 12 / unverified 20 / declined 5 / failed 3", in that order, leaving out zeros. */
function statusCounts(results: QuestionResult[]): string {
  const order = ['answered', 'unverified', 'declined', 'failed', 'cancelled', 'paused'];
  return order
    .map((status) => [status, results.filter((r) => r.status === status).length] as const)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${status} ${n}`)
    .join(' / ');
}

/**
 * The answer model's bounds on one question, with the product's own answer prompt: every gold page
 * opened as a source (what perfect retrieval would give it), and no source at all (what it knows alone).
 */
async function answerBounds(
  item: QaItem,
  model: ChatModel,
  ports: AgentPorts,
  documentId: string | null,
): Promise<BoundResult> {
  const ask = async (pages: number[]): Promise<string> => {
    const state = createState({
      question: item.question,
      history: [],
      requirements: analyzeQuestion(item.question),
      capabilities: { see: false, libraryRoots: [], web: false },
    });
    for (const page of pages) {
      const opened = documentId ? await ports.openPage(documentId, page) : null;
      if (opened) state.sources.addOpened({ ...opened, chunkId: null, boxes: opened.boxes ?? [] });
    }
    const response = await model.chat({
      messages: answerMessages(state, DEFAULT_LIMITS, 'short'),
      maxTokens: DEFAULT_LIMITS.answerMaxTokens,
      temperature: 0,
    });
    return response.text;
  };
  const judge = (text: string) =>
    item.answerable ? answerMatches(text, item.answer) : disclosesInsufficiency(text);
  const ceiling =
    item.answerable && item.gold_pages.length > 0 && documentId ? judge(await ask(item.gold_pages)) : null;
  return {
    id: item.id,
    answerable: item.answerable,
    ceilingCorrect: ceiling,
    floorCorrect: judge(await ask([])),
  };
}

function summarizeBounds(bounds: BoundResult[], label: string): Record<string, string | number | null> {
  const withCeiling = bounds.filter((b) => b.ceilingCorrect !== null);
  return {
    set: label,
    questions: bounds.length,
    'ceiling accuracy (gold pages given)': mean(withCeiling.map((b) => Number(b.ceilingCorrect))),
    'floor accuracy (no retrieval)': mean(
      bounds.filter((b) => b.answerable).map((b) => Number(b.floorCorrect)),
    ),
    'floor: unanswerable declined': mean(
      bounds.filter((b) => !b.answerable).map((b) => Number(b.floorCorrect)),
    ),
  };
}

interface Progress {
  results: Map<string, QuestionResult>;
  bounds: Map<string, BoundResult>;
  /** The file's last line has no end: the run was killed while writing it. */
  cutShort: boolean;
}

const emptyProgress = (): Progress => ({ results: new Map(), bounds: new Map(), cutShort: false });

/** What a stopped run wrote to its progress file: one question's result, or `{ bound }`, per line. */
export async function readProgress(path: string): Promise<Progress> {
  const progress = emptyProgress();
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  progress.cutShort = text !== '' && !text.endsWith('\n');
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let entry: QuestionResult | { bound: BoundResult };
    try {
      entry = JSON.parse(line) as QuestionResult | { bound: BoundResult };
    } catch {
      // A run killed mid-write leaves a cut last line: that question is asked again.
      continue;
    }
    if ('bound' in entry) progress.bounds.set(entry.bound.id, entry.bound);
    else progress.results.set(entry.id, entry);
  }
  return progress;
}

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
}

/** `count` items at even steps through the list (all of them when it is shorter). */
export function spread<T>(list: T[], count: number): T[] {
  if (list.length <= count) return list;
  return Array.from({ length: count }, (_, i) => list[Math.floor((i * list.length) / count)]!);
}

async function readQa(path: string): Promise<QaItem[]> {
  const lines = (await readFile(path, 'utf8')).split('\n').filter((l) => l.trim() !== '');
  return lines.map((line) => JSON.parse(line) as QaItem);
}

export async function run(args: string[], context?: AnswerEvalContext): Promise<BenchReport> {
  const empty = (reason: string): BenchReport => {
    console.log(NO_MODEL_MESSAGE + (reason ? ` (${reason})` : ''));
    return { name: 'eval-answers', rows: [], details: { skipped: reason || NO_MODEL_MESSAGE } };
  };
  if (!context) return empty('no evaluation context: the caller passes the core ports to run()');
  const [decide, answer] = await Promise.all([
    context.ports.models.chatModel('decide'),
    context.ports.models.chatModel('answer'),
  ]);
  if (!decide && !answer) return empty('');

  const limit = Number(option(args, '--limit') ?? Infinity);
  const source = option(args, '--source');
  const qaPath = option(args, '--qa') ?? join(sharedDir, 'qa', 'dev.jsonl');
  const all = (await readQa(qaPath)).filter((q) => !source || q.source === source);
  // --sample N: N questions spread evenly over the file, so every source and the unanswerable ones show.
  const sample = Number(option(args, '--sample') ?? 0);
  const items = (sample > 0 ? spread(all, sample) : all).slice(0, limit);
  const withBounds = args.includes('--bounds');
  const progressFile = option(args, '--progress');
  const done = args.includes('--resume') && progressFile ? await readProgress(progressFile) : emptyProgress();
  // New lines start on a line of their own, after whatever a killed run cut short.
  if (done.cutShort && progressFile) await appendFile(progressFile, '\n');
  const missing = items.filter((q) => !done.results.has(q.id) || (withBounds && !done.bounds.has(q.id)));
  await context.prepare?.([...new Set(missing.map((q) => q.doc))]);

  const results: QuestionResult[] = [];
  const bounds: BoundResult[] = [];
  try {
    for (const [i, item] of items.entries()) {
      const earlier = done.results.get(item.id);
      const earlierBound = done.bounds.get(item.id);
      if (earlier && (!withBounds || earlierBound)) {
        results.push(earlier);
        if (earlierBound) bounds.push(earlierBound);
        continue;
      }
      if (earlier) results.push(earlier);
      const started = performance.now();
      if (!earlier) {
        const usage: Usage = { outputTokens: 0, seconds: 0 };
        const outcome = await runAgent({
          runId: `eval-${item.id}`,
          question: item.question,
          ports: { ...context.ports, models: countingRoles(context.ports.models, usage) },
          limits: context.limits,
        });
        const result = scoreQuestion(item, outcome, (performance.now() - started) / 1000, usage);
        results.push(result);
        // --progress FILE: each question's result as it comes, so a long run stopped early still tells.
        if (progressFile) await appendFile(progressFile, JSON.stringify(result) + '\n');
      }
      const model = answer ?? decide;
      if (withBounds && model) {
        // A bound that fails (a timeout, a crashed host) is counted wrong and said, not fatal to the run.
        const bound = await answerBounds(
          item,
          model,
          context.ports,
          context.documentFor?.(item.doc) ?? null,
        ).catch((error: unknown) => {
          console.error(
            `bounds of ${item.id} failed: ${error instanceof Error ? error.message : String(error)}`,
          );
          return { id: item.id, answerable: item.answerable, ceilingCorrect: false, floorCorrect: false };
        });
        bounds.push(bound);
        if (progressFile) await appendFile(progressFile, JSON.stringify({ bound }) + '\n');
      }
      process.stderr.write(`\ranswered ${i + 1}/${items.length}`);
    }
    process.stderr.write('\n');
  } finally {
    await context.close?.();
  }

  const sources = [...new Set(results.map((r) => r.source))];
  return {
    name: 'eval-answers',
    rows: [
      ...sources.map((s) =>
        summarize(
          results.filter((r) => r.source === s),
          s,
        ),
      ),
      summarize(results, 'all'),
      ...(bounds.length > 0 ? [summarizeBounds(bounds, 'bounds, same model')] : []),
    ],
    details: {
      models: { decide: decide?.id ?? null, answer: answer?.id ?? null },
      questions: results,
      bounds,
    },
  };
}

/** Run directly with tsx, or through `npm run eval -- answers`, which imports `run`. */
if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await run(process.argv.slice(2));
  if (report.rows.length > 0) {
    printTable(report.rows);
    console.log(`written ${await writeReport(report)}`);
  }
}
