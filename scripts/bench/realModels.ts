/**
 * `npm run bench -- real-models [--threads N] [--prompt-words N] [--decode-tokens N]`: each real chat
 * GGUF of the fetched set (`npm run models:fetch-real`) run as the product runs it, in its model host
 * child: the memory budget's prediction (weights plus context at the loaded size) beside the host's
 * measured resident memory, peak while it prefills and decodes; time to the first token; prefill and
 * decode tokens per second. Threads default to 2, the whole of a 2-core machine.
 */
import { getLlama } from 'node-llama-cpp';
import { readProcessTree, readProcStatus } from '../../src/core/memory/processMemory';
import { createLlamaProvider } from '../../src/core/models/llama/llamaProvider';
import { readRealModels } from '../../test/helpers/realModels';
import type { BenchReport } from './report';

const MB = 1e6;
const BUDGET_TOLERANCE = 0.15;

/** A plain, varied passage to prefill: words the model's tokenizer splits as it would a document. */
function promptText(words: number): string {
  const sentences = [
    'The pump station draws water from the lower reservoir and lifts it to the treatment plant.',
    'Each of the three motors is rated at 75 kW and runs at 1,480 revolutions per minute.',
    'Operators record the inlet pressure, the outlet pressure and the flow every four hours.',
    'Bearings are greased every 2,000 operating hours with a lithium complex grease.',
    'An alarm sounds when the outlet pressure falls below 3.5 bar for more than ten seconds.',
  ];
  const out: string[] = [];
  for (let i = 0; out.join(' ').split(' ').length < words; i++) out.push(sentences[i % sentences.length]!);
  return out.join(' ');
}

/** Samples a process's resident memory until stopped; the peak is what the budget must cover. */
function sampleResident(pid: () => number | null): { stop: () => Promise<number> } {
  let peak = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const id = pid();
      const status = id === null ? null : await readProcStatus(id);
      if (status) peak = Math.max(peak, status.residentBytes);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return peak;
    },
  };
}

/** The model host is this process's newest child once the model loads. */
async function hostPid(before: Set<number>): Promise<number | null> {
  const tree = await readProcessTree(process.pid);
  const fresh = tree.filter((entry) => entry.parentPid === process.pid && !before.has(entry.pid));
  return fresh.at(-1)?.pid ?? null;
}

export async function run(args: string[]): Promise<BenchReport> {
  const option = (name: string, fallback: number) => {
    const at = args.indexOf(name);
    return at === -1 ? fallback : Number(args[at + 1]);
  };
  const threads = option('--threads', 2);
  const promptWords = option('--prompt-words', 600);
  const decodeTokens = option('--decode-tokens', 96);
  const models = readRealModels();
  if (typeof models === 'string') {
    console.log(models);
    return { name: 'real-models', rows: [], details: { skipped: models } };
  }
  const llama = await getLlama({ gpu: false, build: 'never' });
  const rows: BenchReport['rows'] = [];
  const targets: NonNullable<BenchReport['targets']> = [];
  const prompt = promptText(promptWords);
  for (const entry of models.chats) {
    // Prompt tokens are counted with the model's own vocabulary, loaded alone (no weights).
    const vocab = await llama.loadModel({ modelPath: entry.path, vocabOnly: true });
    const promptTokens = vocab.tokenize(prompt).length;
    await vocab.dispose();

    const before = new Set((await readProcessTree(process.pid)).map((p) => p.pid));
    const provider = await createLlamaProvider({ modelPath: entry.path, gpu: false, threads });
    let pid: number | null = null;
    const sampler = sampleResident(() => pid);
    const loadStarted = performance.now();
    await provider.load();
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    pid = await hostPid(before);
    const started = performance.now();
    let firstToken = 0;
    const response = await provider.chat({
      messages: [
        { role: 'system', content: 'Summarise the passage for a maintenance engineer.' },
        { role: 'user', content: prompt },
      ],
      maxTokens: decodeTokens,
      temperature: 0,
      onToken: () => {
        if (firstToken === 0) firstToken = performance.now();
      },
    });
    const ended = performance.now();
    const measured = await sampler.stop();
    const entryMemory = provider.memoryEntry();
    const predicted = entryMemory.weightsBytes + entryMemory.kvCacheBytes;
    await provider.dispose();
    const ttft = (firstToken - started) / 1000;
    const decoded = Math.max(0, (response.outputTokens ?? 0) - 1);
    const ratio = measured > 0 ? measured / predicted : null;
    rows.push({
      model: entry.name,
      parameters: entry.parameters,
      fileMB: Math.round(entry.bytes / MB),
      contextTokens: entryMemory.contextSize ?? null,
      predictedMB: Math.round(predicted / MB),
      residentPeakMB: Math.round(measured / MB),
      'resident/predicted': ratio,
      loadSeconds,
      promptTokens,
      ttftSeconds: ttft,
      prefillTokensPerSecond: promptTokens / ttft,
      decodeTokens: decoded,
      decodeTokensPerSecond: decoded / ((ended - firstToken) / 1000),
      threads,
    });
    targets.push({
      what: `${entry.name}: budget prediction against resident memory while it runs`,
      target: `within ${BUDGET_TOLERANCE * 100}%`,
      measured: ratio === null ? 'not measured' : `${((ratio - 1) * 100).toFixed(1)}%`,
      met: ratio !== null && Math.abs(ratio - 1) <= BUDGET_TOLERANCE,
    });
  }
  return {
    name: 'real-models',
    rows,
    targets,
    details: {
      notes: [
        'Prompt tokens are the passage alone, counted with the model vocabulary; the chat template adds a few more.',
        'Resident memory is the model host process alone (weights are memory-mapped, so only pages touched count).',
      ],
    },
  };
}
