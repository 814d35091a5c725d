/**
 * `quire`: the headless engine on the command line. Each command builds its own core on the data dir,
 * does its work and closes it; `serve` keeps running.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ServerUrl } from '../shared/domain/models';
import { QuireError } from '../shared/errors';
import { askCommand } from './cli/askCommand';
import { collectionsCommand } from './cli/collectionCommands';
import { scopeFromFlags } from './cli/scopeFlags';
import { indexCommand, searchCommand } from './cli/indexCommands';
import { libraryCommand } from './cli/libraryCommands';
import { modelsCommand } from './cli/modelCommands';
import { reportFailure } from './cli/output';
import { serveCommand } from './cli/serveCommand';
import { defaultDataDir } from './common/dataDir';
import { parseLibraryLocation } from './location/libraryLocation';
import { modelLaunchOptions, visionLaunchProblem } from './models/launchOptions';

const usage = `Usage: quire <command> [options]

Commands:
  serve [--port N] [--host H] [--no-images] [--max-pages N] [--embedder DIR]
                                     the UI in a browser, over a loopback server with a token
  library add <folder>               add a folder to the library
  library remove <folder>            remove a folder from the library
  library list [--json]              the library's documents with pages, sizes and errors
  index <folder> [--no-images] [--no-ocr] [--max-pages N] [--embedder DIR] [--page-embedder PATH.onnx]
                                     add a folder and index it to completion
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
                   \`search\` reads it. Keys from AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or --profile;
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

Exit codes of ask: 0 answered (checked, with citations), 2 declined or not verified, 1 failed.
`;

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
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
      related: { type: 'boolean', default: false },
      yes: { type: 'boolean', short: 'y', default: false },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    process.stdout.write(usage);
    return;
  }
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir());
  // Absent: the saved setting (or the local data folder) decides.
  const library = values.library
    ? parseLibraryLocation({
        uri: values.library,
        region: values.region ?? null,
        profile: values.profile ?? null,
      })
    : undefined;
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
  if (visionProblem) throw new QuireError('invalid_input', visionProblem);
  const { servers } = launch;
  for (const server of servers) {
    if (!ServerUrl.safeParse(server).success) {
      throw new QuireError(
        'invalid_input',
        `--server ${server}: a server address must be an http:// or https:// URL.`,
      );
    }
  }
  const scope = scopeFromFlags(values.in, values.collection);
  const maxPages = values['max-pages'] === undefined ? undefined : Number(values['max-pages']);
  if (maxPages !== undefined && !(Number.isInteger(maxPages) && maxPages >= 1))
    throw new QuireError(
      'invalid_input',
      `--max-pages must be a whole number of pages, not "${values['max-pages']}".`,
    );
  const pageLimit = maxPages === undefined ? {} : { maxPagesPerDocument: maxPages };
  switch (command) {
    case 'serve': {
      const port = Number(values.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        throw new QuireError('invalid_input', `--port must be a port number, not "${values.port}".`);
      }
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
    case 'index':
      await indexCommand(rest[0], {
        dataDir,
        library,
        json,
        images: !values['no-images'],
        ocr: !values['no-ocr'],
        ...pageLimit,
        ...launch,
      });
      return;
    case 'search': {
      const k = Number(values.k);
      if (!Number.isInteger(k) || k < 1 || k > 100)
        throw new QuireError('invalid_input', '--k must be between 1 and 100.');
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
    case 'ask':
      await askCommand(rest[0], {
        dataDir,
        json,
        ...launch,
        clarify: !values['no-clarify'],
        reviewPlan: values['review-plan'],
        scope,
      });
      return;
    case 'collections':
      await collectionsCommand(rest, { dataDir, json });
      return;
    case 'models':
      await modelsCommand(rest, { dataDir, json, yes: values.yes ?? false, ...launch });
      return;
    case 'library':
      await libraryCommand(rest, { dataDir, json });
      return;
    default:
      throw new QuireError('invalid_input', `Unknown command "${command}".\n\n${usage}`);
  }
}

main(process.argv.slice(2)).catch(reportFailure);
