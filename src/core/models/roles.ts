/*
 * Which model serves which role, and why, as a pure function of settings, detected servers, an optional
 * local GGUF and what memory allows. Running servers come first, then the in-process model.
 */
import type { ModelRole, RoleResolution } from '../../shared/domain/models';
import type { ServerInventory } from './detection/detectServers';
import type { ModelCapability, ServedModel } from './detection/modelCapabilities';
import { can } from './detection/modelCapabilities';

/** A model picked by the user for a role: a served model's name (optionally on one server) or a GGUF path. */
export interface RoleChoice {
  model: string;
  endpoint?: string;
}

export type RoleSettings = Partial<Record<ModelRole, RoleChoice>>;

/** What the memory planner says about loading a model inside Quire. */
export interface InProcessAllowance {
  allowed: boolean;
  /** Why not, in words, when not allowed. */
  reason?: string;
}

export interface ResolveRolesInput {
  settings: RoleSettings;
  servers: ServerInventory[];
  /** From `--model` or QUIRE_MODEL: a GGUF that serves every text role. */
  localModelPath: string | null;
  /** From `--page-embedder`, QUIRE_PAGE_EMBEDDER or a finished download: an ONNX page embedder run in-process. */
  pageEmbedderPath?: string | null;
  inProcess?: InProcessAllowance;
  /** Local GGUFs that cannot be used (truncated, corrupt, failed to load), with the reason. */
  unusableModels?: ReadonlyMap<string, string>;
}

export interface ResolvedRole extends RoleResolution {
  /** `segments`: page vectors built from the embed role's text embedder. */
  via: 'server' | 'local' | 'segments' | 'none';
  supportsImages: boolean;
  apiKey?: string;
}

export const ROLE_ORDER: readonly ModelRole[] = ['decide', 'answer', 'embed', 'pageEmbed', 'see'];

const ROLE_NEEDS: Record<ModelRole, ModelCapability> = {
  decide: 'chat',
  answer: 'chat',
  see: 'vision',
  embed: 'embed',
  pageEmbed: 'multiVector',
};

const WHAT: Record<ModelRole, string> = {
  decide: 'chat model',
  answer: 'chat model',
  see: 'vision model',
  embed: 'embedding model',
  pageEmbed: 'multi-vector (ColQwen/ColPali) model',
};

const OLLAMA_SUGGESTION: Record<ModelRole, string> = {
  decide: 'qwen3:8b',
  answer: 'qwen3:8b',
  see: 'qwen2.5vl:7b',
  embed: 'nomic-embed-text',
  pageEmbed: 'nomic-embed-text',
};

function howToGet(role: ModelRole): string {
  switch (role) {
    case 'decide':
    case 'answer':
      return 'pull one with Ollama (`ollama pull qwen3:8b`), start an MLX server (`mlx_lm.server --model mlx-community/Qwen3-8B-4bit`), or let Quire download a GGUF model.';
    case 'embed':
      return 'pull one with Ollama (`ollama pull nomic-embed-text`), start an embeddings server (mlx-embeddings-server, Infinity, LM Studio), or let Quire download a GGUF embedding model.';
    case 'see':
      return 'pull one with Ollama (`ollama pull qwen2.5vl:7b`) or start `mlx_vlm.server`; until then answers read page text only.';
    case 'pageEmbed':
      return 'page search over page images needs a page embedder: let Quire download ColModernVBERT, give an ONNX export with --page-embedder, or start a ColQwen server (mlx-embeddings-server or Infinity).';
  }
}

function suits(model: ServedModel, role: ModelRole): boolean {
  if (role === 'embed') return can(model, 'embed') && !can(model, 'multiVector');
  return can(model, ROLE_NEEDS[role]);
}

/** Ollama answers to `qwen3` for `qwen3:latest`. */
function sameModel(server: ServerInventory, listed: string, wanted: string): boolean {
  if (listed === wanted) return true;
  return server.kind === 'ollama' && (listed === `${wanted}:latest` || `${listed}:latest` === wanted);
}

function serverName(server: ServerInventory): string {
  return `${server.label} at ${server.endpoint.replace(/^https?:\/\//, '')}`;
}

function fromServer(
  role: ModelRole,
  server: ServerInventory,
  model: ServedModel,
  reason: string,
): ResolvedRole {
  return {
    role,
    provider: server.kind,
    endpoint: server.endpoint,
    model: model.name,
    reason,
    via: 'server',
    supportsImages: can(model, 'vision'),
    ...(server.apiKey ? { apiKey: server.apiKey } : {}),
  };
}

function fromLocal(role: ModelRole, path: string, reason: string): ResolvedRole {
  return {
    role,
    provider: 'llama',
    endpoint: null,
    model: path,
    reason,
    via: 'local',
    supportsImages: false,
  };
}

function fromOnnx(path: string, reason: string): ResolvedRole {
  return {
    role: 'pageEmbed',
    provider: 'onnx',
    endpoint: null,
    model: path,
    reason,
    via: 'local',
    supportsImages: true,
  };
}

function nothing(role: ModelRole, reason: string): ResolvedRole {
  return { role, provider: null, endpoint: null, model: null, reason, via: 'none', supportsImages: false };
}

function isLocalPath(model: string): boolean {
  return /\.(gguf|onnx)$/i.test(model) || model.startsWith('/') || /^[a-z]:\\/i.test(model);
}

/** The user's choice for a role, or why it cannot be honoured. */
function resolveChoice(
  role: ModelRole,
  choice: RoleChoice,
  servers: ServerInventory[],
  inProcess: InProcessAllowance,
  unusable: ReadonlyMap<string, string>,
): ResolvedRole | string {
  if (isLocalPath(choice.model)) {
    const onnx = /\.onnx$/i.test(choice.model);
    if (onnx !== (role === 'pageEmbed'))
      return `\`${choice.model}\` (chosen in settings) cannot serve the ${role} role: ${onnx ? 'an ONNX file is a page embedder' : 'page search takes an ONNX page embedder'}`;
    if (onnx) {
      const problem = unusable.get(choice.model);
      if (problem) return `\`${choice.model}\` (chosen in settings) cannot be used: ${problem}`;
      return fromOnnx(
        choice.model,
        `Chosen in settings: page images are embedded in-process by \`${choice.model}\`.`,
      );
    }
    if (role === 'see')
      return `\`${choice.model}\` (chosen in settings) is a local GGUF, which cannot read images here`;
    const problem = unusable.get(choice.model);
    if (problem) return `\`${choice.model}\` (chosen in settings) cannot be used: ${problem}`;
    if (!inProcess.allowed)
      return `\`${choice.model}\` (chosen in settings) does not fit in memory: ${inProcess.reason ?? 'not enough free memory'}`;
    return fromLocal(role, choice.model, `Chosen in settings: runs in-process from \`${choice.model}\`.`);
  }
  const candidates = servers.filter(
    (server) =>
      choice.endpoint === undefined ||
      server.endpoint.replace(/\/+$/, '') === choice.endpoint.replace(/\/+$/, ''),
  );
  for (const server of candidates) {
    if (!server.reachable) continue;
    const served = server.served.find((model) => sameModel(server, model.name, choice.model));
    if (served)
      return fromServer(role, server, served, `Chosen in settings; served by ${serverName(server)}.`);
  }
  const ollama = candidates.find((server) => server.reachable && server.kind === 'ollama');
  if (ollama)
    return `\`${choice.model}\` (chosen in settings) is not pulled in Ollama: run \`ollama pull ${choice.model}\``;
  return `\`${choice.model}\` (chosen in settings) is not served by any running server`;
}

function firstServed(role: ModelRole, servers: ServerInventory[], preferred?: string): ResolvedRole | null {
  const reachable = servers.filter((server) => server.reachable);
  if (preferred !== undefined) {
    for (const server of reachable) {
      const model = server.served.find((candidate) => candidate.name === preferred && suits(candidate, role));
      if (model)
        return fromServer(
          role,
          server,
          model,
          `Served by ${serverName(server)} (\`${model.name}\`, also the answer model).`,
        );
    }
  }
  for (const server of reachable) {
    const model = server.served.find((candidate) => suits(candidate, role));
    if (model)
      return fromServer(
        role,
        server,
        model,
        `Served by ${serverName(server)} (\`${model.name}\`, the first ${WHAT[role]} it lists).`,
      );
  }
  return null;
}

/** Says which running servers lack the model, so the user knows where to add one. */
function missingAt(role: ModelRole, servers: ServerInventory[]): string {
  const reachable = servers.filter((server) => server.reachable);
  if (reachable.length === 0) return `No model server is running and no ${WHAT[role]} is set up`;
  const ollama = reachable.find((server) => server.kind === 'ollama');
  const names = reachable.map(serverName).join(', ');
  const pull = ollama && role !== 'pageEmbed' ? ` (run \`ollama pull ${OLLAMA_SUGGESTION[role]}\`)` : '';
  return `${names} ${reachable.length === 1 ? 'is' : 'are'} running but ${reachable.length === 1 ? 'has' : 'have'} no ${WHAT[role]}${pull}`;
}

function resolveOne(
  role: ModelRole,
  input: ResolveRolesInput,
  resolved: Map<ModelRole, ResolvedRole>,
): ResolvedRole {
  const inProcess = input.inProcess ?? { allowed: true };
  const unusable = input.unusableModels ?? new Map<string, string>();
  let prefix = '';
  const choice = input.settings[role];
  if (choice) {
    const chosen = resolveChoice(role, choice, input.servers, inProcess, unusable);
    if (typeof chosen !== 'string') return chosen;
    prefix = `${chosen}; `;
  }
  const withPrefix = (result: ResolvedRole): ResolvedRole =>
    prefix === ''
      ? result
      : { ...result, reason: `${prefix}${result.reason.charAt(0).toLowerCase()}${result.reason.slice(1)}` };

  // One chat model for deciding and answering keeps a single model in memory.
  const preferred =
    role === 'decide' || role === 'see' ? (resolved.get('answer')?.model ?? undefined) : undefined;
  const served = firstServed(
    role,
    input.servers,
    resolved.get('answer')?.via === 'server' ? preferred : undefined,
  );
  if (served) return withPrefix(served);

  if (role === 'pageEmbed') {
    const onnxPath = input.pageEmbedderPath ?? null;
    const onnxProblem = onnxPath === null ? undefined : unusable.get(onnxPath);
    if (onnxPath !== null && onnxProblem === undefined) {
      return withPrefix(
        fromOnnx(
          onnxPath,
          `No multi-vector (ColQwen/ColPali) server found: page images are embedded in-process by the ONNX model \`${onnxPath}\`.`,
        ),
      );
    }
    if (onnxProblem !== undefined) prefix += `The page embedder ${onnxPath} cannot be used: ${onnxProblem}; `;
    const embed = resolved.get('embed');
    if (embed && embed.via !== 'none') {
      return withPrefix({
        ...embed,
        role,
        via: 'segments',
        supportsImages: false,
        reason: `No multi-vector (ColQwen/ColPali) server found: page vectors are built line by line with the embedding model \`${embed.model}\`. For search over page images, start mlx-embeddings-server or Infinity with a ColQwen model.`,
      });
    }
    return withPrefix(nothing(role, `${missingAt(role, input.servers)}: ${howToGet(role)}`));
  }

  if (input.localModelPath !== null && role !== 'see') {
    const problem = unusable.get(input.localModelPath);
    if (problem) {
      return withPrefix(
        nothing(
          role,
          `The GGUF ${input.localModelPath} cannot be used: ${problem} Until it is replaced, ${howToGet(role)}`,
        ),
      );
    }
    if (inProcess.allowed) {
      return withPrefix(
        fromLocal(
          role,
          input.localModelPath,
          `No running server offers ${WHAT[role].startsWith('e') ? 'an' : 'a'} ${WHAT[role]}: runs in-process from the GGUF given with --model / QUIRE_MODEL.`,
        ),
      );
    }
    return withPrefix(
      nothing(
        role,
        `The GGUF given with --model / QUIRE_MODEL does not fit in memory (${inProcess.reason ?? 'not enough free memory'}); ${howToGet(role)}`,
      ),
    );
  }
  return withPrefix(nothing(role, `${missingAt(role, input.servers)}: ${howToGet(role)}`));
}

/** One resolution per role, in ROLE_ORDER; `answer` is settled first so `decide` and `see` can reuse it. */
export function resolveRoles(input: ResolveRolesInput): ResolvedRole[] {
  const resolved = new Map<ModelRole, ResolvedRole>();
  for (const role of ['answer', 'decide', 'embed', 'pageEmbed', 'see'] as const) {
    resolved.set(role, resolveOne(role, input, resolved));
  }
  return ROLE_ORDER.map((role) => resolved.get(role)!);
}

/** The shape shown to the user. */
export function toRoleResolution(role: ResolvedRole): RoleResolution {
  return {
    role: role.role,
    provider: role.provider,
    endpoint: role.endpoint,
    model: role.model,
    reason: role.reason,
  };
}
