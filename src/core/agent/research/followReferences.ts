/*
 * The follow_references tool: reads the opened sources for references, resolves each (a section,
 * table, figure, appendix or note within the same document; another document by its name), reads the
 * target page and keeps the passages that bear on the question. Bounded by depth, a visited set, a
 * token budget and convergence (the same document reached three times); every hop is a trace step.
 */
import { z } from 'zod';
import type { PageRef } from '../../../shared/domain/agent';
import { isAbortError, toErrorInfo } from '../../../shared/errors';
import type { AgentLimits } from '../limits';
import type { AgentPorts, OpenedPage, OutlineEntry } from '../ports';
import type { AgentState } from '../state';
import { estimateTokens } from '../text';
import { objectSchema } from '../tools/schema';
import type { Tool, ToolContext, ToolYield } from '../tools/types';
import { matchDocuments } from './libraryMatch';
import { relevantPassages } from './passages';
import {
  detectReferences,
  detectReferencesWithModel,
  hasReferenceCue,
  outlineEntryFor,
  pageHoldsTarget,
  referenceKey,
  type Reference,
} from './references';

/** Visits of one document in one chase after which following it further is going in circles. */
const CONVERGENCE_VISITS = 3;
/** Pages searched for the heading or caption of a target. */
const CANDIDATE_PAGES = 8;
/** Time a model gets to spot references the patterns missed. */
const MODEL_DETECTION_MS = 10_000;

interface Hop {
  reference: Reference;
  from: PageRef;
  depth: number;
}

function unscanned(state: AgentState) {
  return state.sources.all().filter((s) => s.opened && !state.research.scannedSources.has(s.n));
}

function budgetLeft(state: AgentState, limits: AgentLimits): boolean {
  return (
    state.research.referenceHops < limits.referenceHops &&
    state.research.referenceTokens < limits.referenceTokens
  );
}

export const followReferences: Tool<Record<string, never>> = {
  name: 'follow_references',
  description:
    'Follow the references in the opened sources ("see Note 12", "Table 3", another report) and read the pages they point to.',
  inputSchema: z.object({}).strict(),
  modelInputSchema: objectSchema({}),
  ends: false,
  isAvailable: (state) => !state.requirements.aboutFiles && unscanned(state).length > 0,
  runIfTrue: (state, limits) =>
    !state.requirements.aboutFiles &&
    limits.referenceDepth > 0 &&
    budgetLeft(state, limits) &&
    unscanned(state).some((s) => detectReferences(s.text).length > 0 || hasReferenceCue(s.text)),
  defaultInputs: () => ({}),
  async *run(_inputs, context) {
    const { state, limits } = context;
    const queue: Hop[] = [];
    for (const source of unscanned(state)) {
      state.research.scannedSources.add(source.n);
      const from = { documentId: source.documentId, path: source.path, page: source.page };
      for (const reference of await referencesIn(source.text, context))
        queue.push({ reference, from, depth: 1 });
    }
    const visitsPerDocument = new Map<string, number>();
    let followed = 0;
    while (queue.length > 0) {
      const hop = queue.shift()!;
      const key = `${hop.from.documentId}|${referenceKey(hop.reference)}`;
      if (state.research.followed.has(key)) continue;
      state.research.followed.add(key);
      const stop = stopReason(hop, state, limits, visitsPerDocument);
      if (stop) {
        emitUnfollowed(context, hop, stop);
        yield {
          type: 'error',
          message: `Stopped following "${hop.reference.text}": ${stop}`,
          suggestion: null,
        };
        continue;
      }
      const outcome = await followOne(hop, context);
      state.research.referenceHops++;
      followed++;
      yield outcome.result;
      if (!outcome.target) continue;
      visitsPerDocument.set(
        outcome.target.documentId,
        (visitsPerDocument.get(outcome.target.documentId) ?? 0) + 1,
      );
      for (const reference of detectReferences(outcome.keptText))
        queue.push({ reference, from: outcome.target, depth: hop.depth + 1 });
    }
    if (followed === 0 && queue.length === 0)
      yield {
        type: 'result',
        name: 'references',
        text: 'The opened sources point nowhere else.',
        items: 0,
        summary: 'no references to follow',
      };
  },
};

function stopReason(
  hop: Hop,
  state: AgentState,
  limits: AgentLimits,
  visits: Map<string, number>,
): string | null {
  if (hop.depth > limits.referenceDepth) return `deeper than ${limits.referenceDepth} reference(s)`;
  if (state.research.referenceHops >= limits.referenceHops)
    return `the limit of ${limits.referenceHops} references was reached`;
  if (state.research.referenceTokens >= limits.referenceTokens)
    return 'the token budget for references is spent';
  if ((visits.get(hop.from.documentId) ?? 0) >= CONVERGENCE_VISITS)
    return 'the chase keeps returning to the same document';
  return null;
}

/** The trace step of a reference that was not followed, with why. */
function emitUnfollowed(context: ToolContext, hop: Hop, note: string | null): void {
  context.emit({
    type: 'reference',
    reference: hop.reference.text,
    from: hop.from,
    to: null,
    depth: hop.depth,
    kept: 0,
    note,
  });
}

async function referencesIn(text: string, context: ToolContext): Promise<Reference[]> {
  const found = detectReferences(text);
  if (found.length > 0 || !hasReferenceCue(text)) return found;
  const model = await context.ports.models.chatModel('decide').catch(() => null);
  if (!model) return found;
  try {
    const budget = AbortSignal.any([context.signal, AbortSignal.timeout(MODEL_DETECTION_MS)]);
    return await detectReferencesWithModel(model, text, budget);
  } catch (error) {
    if (context.signal.aborted) throw error;
    return found;
  }
}

async function followOne(
  hop: Hop,
  context: ToolContext,
): Promise<{ result: ToolYield; target: PageRef | null; keptText: string }> {
  const { state } = context;
  let page: OpenedPage | null = null;
  let note: string | null = null;
  let foundBy: string | null = null;
  try {
    const target = await resolveTarget(hop, context);
    page = target?.page ?? null;
    foundBy = target?.foundBy ?? null;
    if (!page)
      note =
        hop.reference.kind === 'document'
          ? 'no document in the library has that name'
          : 'not found in the document';
  } catch (error) {
    if (context.signal.aborted || isAbortError(error)) throw error;
    note = toErrorInfo(error).message;
  }
  const label = `"${hop.reference.text}"`;
  if (!page) {
    emitUnfollowed(context, hop, note);
    return {
      result: {
        type: 'error',
        message: `Could not follow ${label} from p. ${hop.from.page}: ${note}.`,
        suggestion: null,
      },
      target: null,
      keptText: '',
    };
  }
  const room = context.limits.referenceTokens - state.research.referenceTokens;
  const kept = relevantPassages(page.text, state.question, room);
  const keptText = kept.join('\n…\n');
  state.research.referenceTokens += estimateTokens(keptText);
  const source = state.sources.addOpened({
    documentId: page.documentId,
    path: page.path,
    page: page.page,
    chunkId: null,
    text: keptText,
    boxes: page.boxes ?? [],
  });
  state.research.scannedSources.add(source.n);
  const to = { documentId: page.documentId, path: page.path, page: page.page };
  context.emit({
    type: 'reference',
    reference: hop.reference.text,
    from: hop.from,
    to,
    depth: hop.depth,
    kept: kept.length,
    note: foundBy,
  });
  return {
    result: {
      type: 'result',
      name: `${label} → [${source.n}]`,
      text: `[${source.n}] ${page.path} p.${page.page} (followed ${label} from p. ${hop.from.page}):\n${keptText}`,
      items: kept.length,
      summary: `followed ${label} → p. ${page.page}${hop.reference.kind === 'document' ? ` of ${page.path}` : ''}, kept ${kept.length} passage(s)`,
    },
    target: to,
    keptText,
  };
}

/**
 * The page a reference points to, or null when it cannot be found; `foundBy` says how, when not by
 * the usual search for a heading or caption.
 */
async function resolveTarget(
  hop: Hop,
  { state, ports, signal }: ToolContext,
): Promise<{ page: OpenedPage; foundBy: string | null } | null> {
  const found = (page: OpenedPage | null, foundBy: string | null = null) => (page ? { page, foundBy } : null);
  if (hop.reference.kind === 'document') {
    const [best] = matchDocuments(hop.reference.target, await ports.libraryDocuments()).filter(
      (match) => !match.yearMismatch && match.document.id !== hop.from.documentId,
    );
    if (!best) return null;
    const hits = await ports.searchChunks(state.question, { k: 1, documentIds: [best.document.id] }, signal);
    return found(await ports.openPage(best.document.id, hits[0]?.page ?? 1));
  }
  // The author's own table of contents, where the PDF has one, names the page outright.
  const entry = outlineEntryFor(await outlineOf(hop.from.documentId, ports, signal), hop.reference);
  if (entry && entry.page !== hop.from.page) {
    const page = await ports.openPage(hop.from.documentId, entry.page);
    if (page) return found(page, `found in the PDF outline ("${entry.title}")`);
  }
  const label = `${hop.reference.kind === 'section' ? 'Section' : hop.reference.kind} ${hop.reference.target}`;
  const hits = await ports.searchChunks(
    label,
    { k: CANDIDATE_PAGES, mode: 'bm25', documentIds: [hop.from.documentId] },
    signal,
  );
  const pages = [...new Set(hits.map((hit) => hit.page))].filter((page) => page !== hop.from.page);
  for (const pageNumber of pages) {
    const page = await ports.openPage(hop.from.documentId, pageNumber);
    if (page && pageHoldsTarget(page.text, hop.reference)) return found(page);
  }
  return null;
}

/** A document's outline; none when the port is absent or the file cannot be read (search still works). */
async function outlineOf(
  documentId: string,
  ports: AgentPorts,
  signal: AbortSignal,
): Promise<OutlineEntry[]> {
  if (!ports.documentOutline) return [];
  try {
    return await ports.documentOutline(documentId, signal);
  } catch (error) {
    if (signal.aborted) throw error;
    return [];
  }
}
