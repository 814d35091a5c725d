import { fileName, plural } from '../../lib/format';

/** What one tool call did, in the user's words: while it runs and once it has results. */
export interface ToolSentence {
  running: string;
  done: string;
}

type Inputs = Record<string, unknown>;

function text(inputs: Inputs, key: string): string {
  const value = inputs[key];
  return typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
}

function quoted(value: string): string {
  return value ? ` for “${value}”` : '';
}

/** A folder the file tools were limited to, or nothing for the whole library. */
function inFolder(inputs: Inputs): string {
  const folder = text(inputs, 'folder');
  return folder ? ` in ${folder}` : '';
}

const PHRASES: Record<string, (inputs: Inputs, items: number) => ToolSentence> = {
  text_search: (inputs, items) => {
    const how = text(inputs, 'mode') === 'bm25' ? ' by keywords' : '';
    return {
      running: `Searching the text${how}${quoted(text(inputs, 'query'))}`,
      done: `Searched the text${how}${quoted(text(inputs, 'query'))}: ${plural(items, 'passage')}`,
    };
  },
  visual_search: (inputs, items) => ({
    running: `Looking through page images${quoted(text(inputs, 'query'))}`,
    done: `Looked through page images${quoted(text(inputs, 'query'))}: ${plural(items, 'page')}`,
  }),
  open_citation: (inputs) => {
    const source = text(inputs, 'source').replace(/[[\]]/g, '');
    const what = text(inputs, 'scope') === 'page' ? 'the whole page of source' : 'source';
    return { running: `Reading ${what} [${source}]`, done: `Read ${what} [${source}]` };
  },
  visual_interpretation: (inputs, items) => ({
    running: 'Reading the page images',
    done: `Read ${plural(items, 'page image')}${quoted(text(inputs, 'question'))}`,
  }),
  find_documents: (inputs, items) => ({
    running: `Finding every document that mentions “${text(inputs, 'term')}”`,
    done: `Found ${plural(items, 'document')} that mention “${text(inputs, 'term')}”`,
  }),
  library: (_inputs, items) => ({
    running: 'Looking through the library’s documents',
    done: `Looked through the library’s documents: ${plural(items, 'document')}`,
  }),
  count_files: (inputs, items) => ({
    running: `Counting the files${inFolder(inputs)}`,
    done: `Counted the files${inFolder(inputs)}: ${items}`,
  }),
  list_files: (inputs, items) => ({
    running: `Listing the files${inFolder(inputs)}`,
    done: `Listed ${plural(items, 'file')}${inFolder(inputs)}`,
  }),
  file_metadata: (inputs) => {
    const name = fileName(text(inputs, 'path')) || 'a file';
    return { running: `Looking up ${name}`, done: `Looked up the details of ${name}` };
  },
  grep_files: (inputs, items) => ({
    running: `Searching inside the files${quoted(text(inputs, 'pattern'))}`,
    done: `Searched inside the files${quoted(text(inputs, 'pattern'))}: ${plural(items, 'match', 'matches')}`,
  }),
  directory_tree: (inputs) => ({
    running: `Looking at the folders${inFolder(inputs)}`,
    done: `Looked at the folders${inFolder(inputs)}`,
  }),
  summarize: () => ({
    running: 'Condensing earlier results to make room',
    done: 'Condensed earlier results to make room',
  }),
  answer: () => ({ running: 'Writing the answer', done: 'Wrote the answer' }),
};

export function toolSentence(tool: string, inputs: Inputs, items: number): ToolSentence {
  const phrase = PHRASES[tool];
  if (phrase) return phrase(inputs, items);
  const name = tool.replace(/_/g, ' ');
  return { running: `Using ${name}`, done: `Used ${name}: ${plural(items, 'result')}` };
}

const INPUT_LABELS: Record<string, string> = {
  query: 'Searched for',
  k: 'Results asked for',
  mode: 'Search mode',
  source: 'Source',
  scope: 'Scope',
  pattern: 'Pattern',
  folder: 'Folder',
  kind: 'Kind of file',
  limit: 'At most',
  path: 'File',
  depth: 'Depth',
  question: 'Question',
  style: 'Style',
};

const MODE_WORDS: Record<string, string> = {
  hybrid: 'meaning and keywords',
  bm25: 'keywords only',
  dense: 'meaning only',
};

/** A tool's inputs as labelled lines, never raw JSON. */
export function describeInputs(inputs: Inputs): Array<{ label: string; value: string }> {
  return Object.entries(inputs).map(([key, value]) => {
    const label = INPUT_LABELS[key] ?? key.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
    return { label, value: formatValue(key, value) };
  });
}

function formatValue(key: string, value: unknown): string {
  if (typeof value === 'string') return key === 'mode' ? (MODE_WORDS[value] ?? value) : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map((item) => formatValue(key, item)).join(', ');
  if (value === null || value === undefined) return '—';
  return Object.entries(value as Inputs)
    .map(([name, inner]) => `${name}: ${formatValue(name, inner)}`)
    .join('; ');
}
