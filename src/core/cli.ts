/**
 * `quire`: the headless engine on the command line. Each command builds its own core on the data dir,
 * does its work and closes it; `serve` keeps running. `npx quire` runs the build of this file
 * (out/cli/quire.js, see packages/cli/build.mjs).
 */
import { quireVersion } from './common/quireVersion';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { QuireError } from '../shared/errors';
import { endWithParentOrSignal } from './cli/commandLifetime';
import { reportFailure } from './cli/output';
import { scopeFromFlags } from './cli/scopeFlags';
import { failureExitCode, UsageError } from './cli/usage';
import { defaultDataDir } from './common/dataDir';
import { parseLibraryLocation } from './location/libraryLocation';
import { modelLaunchOptions, visionLaunchProblem } from './models/launchOptions';

// The commands load when run, not here: `quire --help` must not wait for LanceDB, ONNX or llama.cpp.

const usage = `Usage: quire <command> [options]

Commands:
  serve [--port N] [--host H] [--no-images] [--max-pages N] [--embedder DIR]
                                     the UI in a browser, over a loopback server with a token
  mcp                                the library as an MCP server on stdio, for other agents
  library add <folder>               add a folder to the library
  library remove <folder>            remove a folder from the library
  library list [--json]              the library's documents with pages, sizes and errors
  index <folder> [--no-images] [--no-ocr] [--max-pages N] [--strict] [--embedder DIR] [--page-embedder PATH.onnx]
                                     add a folder and index it to completion; names the files that
                                     could not be indexed (--strict: and exits 1)
  search "<query>" [--k 10] [--mode bm25|dense|hybrid|pages] [--rewrite] [--rerank]
         [--embedder DIR] [--page-embedder PATH.onnx] [--in PATH]... [--collection NAME] [--documents [--related]]
                                     --documents: every document holding the words (case, plural folded),
                                     not the top k; --related: also words of the same stem, named per document
  ask "<question>" [--model PATH.gguf] [--embedder DIR] [--no-clarify] [--review-plan] [--in PATH]... [--collection NAME]
      [--vision-model PATH.gguf --vision-projector PATH.gguf]
                                     ask the library; cites pages; asks back when the question is ambiguous
  collections list | create NAME | rename NAME NEW | delete NAME | add NAME PATH... | remove NAME PATH...
                                     saved scopes; deleting one deletes no document
  models status [--model PATH.gguf] [--embedder DIR] [--vision-model PATH.gguf --vision-projector PATH.gguf]
                                     each model role, servers found, the memory budget
  models recommend [--json]          the model set proposed for this machine
  models setup [--yes]               download the proposed set (or pull it with Ollama)

Options:
  --data-dir DIR   where Quire keeps its data (default: ${defaultDataDir()})
  --library URI    a shared library on object storage (s3://bucket/prefix, or
                   s3+ddb://bucket/prefix?ddbTableName=T): \`index\` writes it, one writer at a time;
                   \`search\`, \`ask\` and \`mcp\` read it. Keys from AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or --profile;
                   endpoint from QUIRE_S3_ENDPOINT (plain http only on 127.0.0.1)
  --region R       the library's region (or AWS_REGION)
  --profile NAME   a profile of ~/.aws/credentials for the library's keys
  --max-pages N    index at most N pages of one PDF (default 10000); a longer file is indexed up to
                   there and listed with a warning that says so
  --model PATH     a local GGUF for every text role (or QUIRE_MODEL)
  --embedder DIR   an ONNX sentence embedder (BGE, E5 or MiniLM: a folder with model.onnx and
                   tokenizer.json) run in-process for text vectors (or QUIRE_EMBEDDER); the same one
                   must be given to index and to search
  --page-embedder PATH
                   an ONNX page embedder (ColModernVBERT) run in-process (or QUIRE_PAGE_EMBEDDER)
  --vision-model PATH, --vision-projector PATH
                   a vision model GGUF and its projector (mmproj), run in-process for reading page
                   images when no server offers one (or QUIRE_VISION_MODEL, QUIRE_VISION_PROJECTOR)
  --reranker PATH  a reranker GGUF for --rerank (or QUIRE_RERANKER; else a downloaded one)
  --server URL     a model server to use besides the ones found on this machine (or QUIRE_SERVERS)
  --in PATH        only this file or folder of the library (repeat for more)
  --collection NAME
                   only the documents of this collection
  --json           machine-readable output
  --yes            do not ask before downloading
  --version        print Quire's version
  -h, --help       print this help

Exit codes: 0 done (for ask: answered, checked, with citations); 1 failed; 2 (ask) declined or not
verified; 64 usage error (unknown command or option, missing argument, bad value).
`;

/** Reads the command line; what Node's parseArgs rejects is a usage error like any other. */
function readArgs(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'data-dir': { type: 'string' },
        json: { type: 'boolean', default: false },
        port: { type: 'string', default: '7420' },
        host: { type: 'string', default: '127.0.0.1' },
        help: { type: 'boolean', short: 'h', default: false },
        k: { type: 'string', default: '10' },
        mode: { type: 'string' },
        'no-images': { type: 'boolean', default: false },
        'no-ocr': { type: 'boolean', default: false },
        'max-pages': { type: 'string' },
        model: { type: 'string' },
        embedder: { type: 'string' },
        'page-embedder': { type: 'string' },
        'vision-model': { type: 'string' },
        'vision-projector': { type: 'string' },
        reranker: { type: 'string' },
        rewrite: { type: 'boolean', default: false },
        rerank: { type: 'boolean', default: false },
        'no-clarify': { type: 'boolean', default: false },
        'review-plan': { type: 'boolean', default: false },
        server: { type: 'string', multiple: true },
        library: { type: 'string' },
        region: { type: 'string' },
        profile: { type: 'string' },
        in: { type: 'string', multiple: true },
        collection: { type: 'string', multiple: true },
        documents: { type: 'boolean', default: false },
        strict: { type: 'boolean', default: false },
        related: { type: 'boolean', default: false },
        yes: { type: 'boolean', short: 'y', default: false },
        version: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(`${message}\nRun \`quire --help\` for the commands and options.`);
  }
}

/** The library location from --library; its mistakes are the command line's. */
function libraryFromFlags(values: { library?: string; region?: string; profile?: string }) {
  // Absent: the saved setting (or the local data folder) decides.
  if (!values.library) return undefined;
  try {
    return parseLibraryLocation({
      uri: values.library,
      region: values.region ?? null,
      profile: values.profile ?? null,
    });
  } catch (error) {
    if (error instanceof QuireError && error.code === 'invalid_input') throw new UsageError(error.message);
    throw error;
  }
}

/** The commands that open the library --library names; the others would silently use the local one. */
const READS_A_SHARED_LIBRARY = new Set(['index', 'search', 'ask', 'mcp']);

const ASK_USAGE = 'Usage: quire ask "<question>" [--model PATH.gguf] [--json]';
const SEARCH_USAGE =
  'Usage: quire search "<query>" [--k 10] [--mode bm25|dense|hybrid|pages] [--rewrite] [--rerank]';

async function main(argv: string[]): Promise<void> {
  // The reader of the output went away (`quire search … | head`): stop quietly, as other tools do.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  const { values, positionals } = readArgs(argv);
  const [command, ...rest] = positionals;
  if (values.version) {
    process.stdout.write(`${quireVersion()}\n`);
    return;
  }
  if (values.help || !command) {
    process.stdout.write(usage);
    return;
  }
  // Any command can run long (a big folder, a slow model): each ends with its wrapper or a signal.
  endWithParentOrSignal({ label: `quire ${command}`, serving: command === 'serve' || command === 'mcp' });
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir());
  const library = libraryFromFlags(values);
  const json = values.json ?? false;
  const launch = modelLaunchOptions({
    model: values.model,
    server: values.server,
    embedder: values.embedder,
    pageEmbedder: values['page-embedder'],
    visionModel: values['vision-model'],
    visionProjector: values['vision-projector'],
  });
  const visionProblem = visionLaunchProblem(launch);
  if (visionProblem) throw new UsageError(visionProblem);
  const { servers } = launch;
  if (servers.length > 0) {
    const { ServerUrl } = await import('../shared/domain/models');
    for (const server of servers) {
      if (!ServerUrl.safeParse(server).success) {
        throw new UsageError(`--server ${server}: a server address must be an http:// or https:// URL.`);
      }
    }
  }
  if (library && !READS_A_SHARED_LIBRARY.has(command))
    throw new UsageError(
      `quire ${command} works on this computer's library and does not take --library; index, search, ask and mcp do.`,
    );
  const scope = scopeFromFlags(values.in, values.collection);
  const maxPages = values['max-pages'] === undefined ? undefined : Number(values['max-pages']);
  if (maxPages !== undefined && !(Number.isInteger(maxPages) && maxPages >= 1))
    throw new UsageError(`--max-pages must be a whole number of pages, not "${values['max-pages']}".`);
  const pageLimit = maxPages === undefined ? {} : { maxPagesPerDocument: maxPages };
  switch (command) {
    case 'serve': {
      const port = Number(values.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        throw new UsageError(`--port must be a port number, not "${values.port}".`);
      }
      const { serveCommand } = await import('./cli/serveCommand');
      await serveCommand({
        dataDir,
        port,
        host: values.host ?? '127.0.0.1',
        images: !values['no-images'],
        ...pageLimit,
        ...launch,
      });
      return;
    }
    case 'index': {
      if (!rest[0]) throw new UsageError('Usage: quire index <folder>');
      if (launch.pageEmbedderPath !== null && values['no-images'])
        throw new UsageError('--page-embedder reads page images: leave out --no-images.');
      const { indexCommand } = await import('./cli/indexCommands');
      await indexCommand(rest[0], {
        dataDir,
        library,
        json,
        images: !values['no-images'],
        ocr: !values['no-ocr'],
        strict: values.strict ?? false,
        ...pageLimit,
        ...launch,
      });
      return;
    }
    case 'search': {
      if (!rest[0]?.trim()) throw new UsageError(SEARCH_USAGE);
      const k = Number(values.k);
      if (!Number.isInteger(k) || k < 1 || k > 100) throw new UsageError('--k must be between 1 and 100.');
      if (values.mode !== undefined) {
        const { SearchMode } = await import('../shared/domain/search');
        if (!SearchMode.safeParse(values.mode).success)
          throw new UsageError(`--mode must be one of: ${SearchMode.options.join(', ')}.`);
      }
      const { searchCommand } = await import('./cli/indexCommands');
      await searchCommand(rest[0], {
        dataDir,
        library,
        json,
        k,
        mode: values.mode,
        rewrite: values.rewrite ?? false,
        rerank: values.rerank ?? false,
        rerankerPath: values.reranker ?? process.env.QUIRE_RERANKER ?? null,
        scope,
        documents: values.documents ?? false,
        related: values.related ?? false,
        ...launch,
      });
      return;
    }
    case 'ask': {
      // A blank question is the same mistake as a missing one, caught before any model loads.
      if (!rest[0]?.trim()) throw new UsageError(ASK_USAGE);
      const { askCommand } = await import('./cli/askCommand');
      await askCommand(rest[0], {
        dataDir,
        library,
        json,
        ...launch,
        clarify: !values['no-clarify'],
        reviewPlan: values['review-plan'],
        scope,
      });
      return;
    }
    case 'collections': {
      const { collectionsCommand } = await import('./cli/collectionCommands');
      await collectionsCommand(rest, { dataDir, json });
      return;
    }
    case 'models': {
      const { modelsCommand } = await import('./cli/modelCommands');
      await modelsCommand(rest, { dataDir, json, yes: values.yes ?? false, ...launch });
      return;
    }
    case 'mcp': {
      const { mcpCommand } = await import('./cli/mcpCommand');
      await mcpCommand({ dataDir, library, ...launch });
      return;
    }
    case 'library': {
      const { libraryCommand } = await import('./cli/libraryCommands');
      await libraryCommand(rest, { dataDir, json });
      return;
    }
    default:
      throw new UsageError(`Unknown command "${command}".\n\n${usage}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  reportFailure(error);
  // 2 stays ask's "declined or not verified": any other failure is 1, a usage error 64.
  process.exitCode = failureExitCode(error);
});
