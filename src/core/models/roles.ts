/*
 * Which model serves which role, and why, as a pure function of settings, detected servers, the
 * models folder, an optional `--model` GGUF and what memory allows. Every entry point (the app,
 * `quire serve`, each CLI command) resolves through here, so they agree.
 *
 * Order, per role:
 * - decide, answer: `--model` / QUIRE_MODEL, the choice in settings, a running server, the models folder;
 * - embed: the choice in settings, a running server, the models folder, then `--model`;
 * - pageEmbed: the choice in settings, a ColQwen server, an ONNX page embedder (`--page-embedder` /
 *   QUIRE_PAGE_EMBEDDER, then the models folder), then page vectors built from the embed role;
 * - see: the choice in settings, then a vision model on a running server.
 */
import type { ModelRole, RoleResolution } from '../../shared/domain/models';
import type { LocalModel } from './catalogue/modelsFolder';
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
  /** From `--model` or QUIRE_MODEL: a GGUF for the text roles. */
  localModelPath: string | null;
  /** What the models folder offers each role (catalogue downloads and GGUF files put there). */
  localModels?: Partial<Record<ModelRole, LocalModel>>;
  /** From `--page-embedder` or QUIRE_PAGE_EMBEDDER: an ONNX page embedder run in-process. */
  pageEmbedderPath?: string | null;
  inProcess?: InProcessAllowance;
  /** Local GGUF and ONNX files that cannot be used (truncated, corrupt, failed to load), with the reason. */
  unusableModels?: ReadonlyMap<string, string>;
  /** How to get a model for a role on this machine (catalogue/advice.ts). */
  advice?: (role: ModelRole) => string;
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

const GENERIC_ADVICE: Record<ModelRole, string> = {
  decide:
    'run `quire models setup`, pull a chat model with Ollama, or put a GGUF chat model in the models folder',
  answer:
    'run `quire models setup`, pull a chat model with Ollama, or put a GGUF chat model in the models folder',
  embed: 'run `quire models setup`, pull an embedding model with Ollama, or start an embeddings server',
  see: 'run `quire models setup` or pull a vision model with Ollama; until then answers read page text only',
  pageEmbed:
    'page-image search needs a page embedder: run `quire models setup` (ColModernVBERT), give an ONNX export with --page-embedder, or start a ColQwen server; until then page vectors come from the text embedder',
};

function suits(model: ServedModel, role: ModelRole): boolean {
  if (role === 'embed') return can(model, 'embed') && !can(model, 'multiVector');
  return can(model, ROLE_NEEDS[role]);
}

/** Ollama answers to `qwen3` for `qwen3:latest`. */
function sameModel(server: ServerInventory, listed: string, wanted: string): boolean {
  if (listed === wanted) return true;
  return server.kind === 'ollama' && (listed === `${wanted}:latest` || `${listed}:latest` === wanted);
}

/** "Ollama at 127.0.0.1:11434", or just the address when that is all the label says. */
export function serverName(server: Pick<ServerInventory, 'label' | 'endpoint'>): string {
  const address = server.endpoint.replace(/^https?:\/\//, '').replace(/\/+$/, '');
  return server.label === address || server.label === '' ? address : `${server.label} at ${address}`;
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

/** An ONNX page embedder run in-process: it reads the page images themselves. */
function fromOnnx(path: string, reason: string): ResolvedRole {
  const role = 'pageEmbed';
  return { role, provider: 'onnx', endpoint: null, model: path, reason, via: 'local', supportsImages: true };
}

function nothing(role: ModelRole, reason: string): ResolvedRole {
  return { role, provider: null, endpoint: null, model: null, reason, via: 'none', supportsImages: false };
}

function isLocalPath(model: string): boolean {
  return /\.(gguf|onnx)$/i.test(model) || model.startsWith('/') || /^[a-z]:\\/i.test(model);
}

class Resolution {
  private readonly resolved = new Map<ModelRole, ResolvedRole>();
  private readonly inProcess: InProcessAllowance;

  constructor(private readonly input: ResolveRolesInput) {
    this.inProcess = input.inProcess ?? { allowed: true };
  }

  get(role: ModelRole): ResolvedRole | undefined {
    return this.resolved.get(role);
  }

  set(role: ModelRole, value: ResolvedRole): void {
    this.resolved.set(role, value);
  }

  private advice(role: ModelRole): string {
    return this.input.advice?.(role) ?? GENERIC_ADVICE[role];
  }

  /** The user's choice for a role, or why it cannot be honoured. */
  choice(role: ModelRole): ResolvedRole | string | null {
    const choice = this.input.settings[role];
    if (!choice) return null;
    if (isLocalPath(choice.model)) {
      const problem = this.input.unusableModels?.get(choice.model);
      if (problem)
        return `\`${choice.model}\` (chosen in settings) cannot be used: ${problem.replace(/\.$/, '')}`;
      const onnx = /\.onnx$/i.test(choice.model);
      if (onnx !== (role === 'pageEmbed'))
        return `\`${choice.model}\` (chosen in settings) cannot serve the ${role} role: ${onnx ? 'an ONNX file is a page embedder' : 'page search takes an ONNX page embedder'}`;
      if (onnx)
        return fromOnnx(
          choice.model,
          `Chosen in settings: page images are embedded in-process by \`${choice.model}\`.`,
        );
      if (role === 'see')
        return `\`${choice.model}\` (chosen in settings) is a local GGUF, which this build cannot use for ${WHAT[role]}s`;
      if (!this.inProcess.allowed)
        return `\`${choice.model}\` (chosen in settings) does not fit in memory: ${this.inProcess.reason ?? 'not enough free memory'}`;
      return fromLocal(role, choice.model, `Chosen in settings: runs in-process from \`${choice.model}\`.`);
    }
    const candidates = this.input.servers.filter(
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

  served(role: ModelRole): ResolvedRole | null {
    const reachable = this.input.servers.filter((server) => server.reachable);
    // One chat model for deciding, answering and seeing keeps a single model in memory.
    const answer = this.get('answer');
    const preferred = (role === 'decide' || role === 'see') && answer?.via === 'server' ? answer.model : null;
    if (preferred !== null) {
      for (const server of reachable) {
        const model = server.served.find(
          (candidate) => candidate.name === preferred && suits(candidate, role),
        );
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

  /** A GGUF run in-process, or why it cannot be: a broken file, or not enough memory. */
  inProcessModel(role: ModelRole, path: string, why: string): ResolvedRole {
    const problem = this.input.unusableModels?.get(path);
    if (problem)
      return nothing(
        role,
        `The GGUF ${path} cannot be used: ${problem} Until it is replaced, ${this.advice(role)}`,
      );
    if (this.inProcess.allowed) return fromLocal(role, path, why);
    return nothing(
      role,
      `\`${path}\` does not fit in memory (${this.inProcess.reason ?? 'not enough free memory'}); ${this.advice(role)}`,
    );
  }

  /** Says which running servers lack the model, so the user knows where to add one. */
  missing(role: ModelRole, extra = ''): ResolvedRole {
    const reachable = this.input.servers.filter((server) => server.reachable);
    const where =
      reachable.length === 0
        ? `No model server is running and no ${WHAT[role]} is set up`
        : `${reachable.map(serverName).join(', ')} ${reachable.length === 1 ? 'is' : 'are'} running but ${reachable.length === 1 ? 'has' : 'have'} no ${WHAT[role]}`;
    return nothing(role, `${where}${extra}: ${this.advice(role)}`);
  }

  local(role: ModelRole): LocalModel | undefined {
    return this.input.localModels?.[role];
  }
}

function resolveText(
  role: 'decide' | 'answer' | 'embed',
  r: Resolution,
  input: ResolveRolesInput,
): ResolvedRole {
  const flag = input.localModelPath;
  const broken = flag !== null ? input.unusableModels?.get(flag) : undefined;
  // An unusable --model is said first, and resolution goes on as if it had not been given.
  const notes: string[] = broken ? [`The GGUF ${flag} cannot be used: ${broken.replace(/\.$/, '')}`] : [];
  if (flag !== null && !broken && role !== 'embed')
    return r.inProcessModel(
      role,
      flag,
      `Runs in-process from the GGUF given with --model / QUIRE_MODEL (\`${flag}\`).`,
    );
  const chosen = r.choice(role);
  if (chosen !== null && typeof chosen !== 'string') return chosen;
  if (typeof chosen === 'string') notes.push(chosen);
  const withNotes = (result: ResolvedRole): ResolvedRole =>
    notes.length === 0
      ? result
      : {
          ...result,
          reason: `${notes.join('; ')}; ${result.reason.charAt(0).toLowerCase()}${result.reason.slice(1)}`,
        };
  const served = r.served(role);
  if (served) return withNotes(served);
  const local = r.local(role);
  if (local) {
    const what = local.catalogue
      ? `${local.catalogue.label}, downloaded by the setup`
      : 'a GGUF put in the models folder';
    return withNotes(r.inProcessModel(role, local.path, `Runs in-process from ${what} (\`${local.path}\`).`));
  }
  if (flag !== null && !broken)
    return withNotes(
      r.inProcessModel(
        role,
        flag,
        `No embedding model is set up: embeds with the GGUF given with --model / QUIRE_MODEL (\`${flag}\`).`,
      ),
    );
  return withNotes(r.missing(role));
}

/** A downloaded model whose runtime this build lacks, said plainly. */
function notRunnable(local: LocalModel): string {
  return `${local.catalogue?.label ?? local.path} is downloaded (\`${local.path}\`), but this build cannot run it in-process yet`;
}

function resolvePageEmbed(r: Resolution, input: ResolveRolesInput): ResolvedRole {
  const chosen = r.choice('pageEmbed');
  if (chosen !== null && typeof chosen !== 'string') return chosen;
  const served = r.served('pageEmbed');
  if (served) return served;
  const local = r.local('pageEmbed');
  // An ONNX page embedder runs in-process: the one given at launch, else the models folder's; one that
  // cannot be used is said first, whatever serves instead.
  const notes = typeof chosen === 'string' ? [chosen] : [];
  const onnx: Array<[string, string]> = [
    ...(input.pageEmbedderPath
      ? [[input.pageEmbedderPath, 'given with --page-embedder / QUIRE_PAGE_EMBEDDER'] as [string, string]]
      : []),
    ...(local?.runtimeReady
      ? [[local.path, `${local.catalogue?.label ?? 'a model'} in the models folder`] as [string, string]]
      : []),
  ];
  for (const [path, what] of onnx) {
    const problem = input.unusableModels?.get(path);
    if (problem) {
      notes.push(`The page embedder ${path} cannot be used: ${problem.replace(/\.$/, '')}`);
      continue;
    }
    const reason = `No multi-vector (ColQwen/ColPali) server found: page images are embedded in-process by the ONNX model ${what} (\`${path}\`).`;
    return fromOnnx(
      path,
      notes.length === 0
        ? reason
        : `${notes.join('; ')}; ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`,
    );
  }
  const before = [
    ...notes,
    ...(local && !local.runtimeReady
      ? [notRunnable(local)]
      : [`${notes.length === 0 ? 'N' : 'n'}o multi-vector (ColQwen/ColPali) model is running`]),
  ].join('; ');
  const embed = r.get('embed');
  if (embed && embed.via !== 'none') {
    return {
      ...embed,
      role: 'pageEmbed',
      via: 'segments',
      supportsImages: false,
      reason: `${before}: page vectors are built line by line with the embedding model \`${embed.model}\`. For search over page images, start mlx-embeddings-server or Infinity with a ColQwen model.`,
    };
  }
  const missing = r.missing('pageEmbed', local && !local.runtimeReady ? `; ${notRunnable(local)}` : '');
  return notes.length === 0 ? missing : { ...missing, reason: `${notes.join('; ')}. ${missing.reason}` };
}

function resolveSee(r: Resolution): ResolvedRole {
  const chosen = r.choice('see');
  if (chosen !== null && typeof chosen !== 'string') return chosen;
  const served = r.served('see');
  if (served) return served;
  const local = r.local('see');
  const notes = [
    ...(typeof chosen === 'string' ? [`; ${chosen}`] : []),
    ...(local && !local.runtimeReady ? [`; ${notRunnable(local)}`] : []),
  ].join('');
  return r.missing('see', notes);
}

/** One resolution per role, in ROLE_ORDER; `answer` is settled first so `decide` and `see` can reuse it. */
export function resolveRoles(input: ResolveRolesInput): ResolvedRole[] {
  const r = new Resolution(input);
  for (const role of ['answer', 'decide', 'embed'] as const) r.set(role, resolveText(role, r, input));
  r.set('pageEmbed', resolvePageEmbed(r, input));
  r.set('see', resolveSee(r));
  return ROLE_ORDER.map((role) => r.get(role)!);
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
