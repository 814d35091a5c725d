/*
 * Which model serves which role, and why, as a pure function of settings, detected servers, the
 * models folder, an optional `--model` GGUF and what memory allows. Every entry point (the app,
 * `quire serve`, each CLI command) resolves through here, so they agree.
 *
 * Order, per role:
 * - decide, answer: `--model` / QUIRE_MODEL, the choice in settings, a running server, the models folder;
 * - embed: `--embedder` / QUIRE_EMBEDDER (an ONNX sentence embedder), the choice in settings, a running
 *   server, the models folder, then `--model`;
 * - pageEmbed: the choice in settings, a ColQwen server, an ONNX page embedder (`--page-embedder` /
 *   QUIRE_PAGE_EMBEDDER, then the models folder), then page vectors built from the embed role;
 * - see: the choice in settings, a vision model on a running server, then one run in-process
 *   (`--vision-model` with `--vision-projector`, then the models folder's with its projector).
 */
import type { RoleResolution } from '../../shared/domain/models';
import type { LocalModel } from './catalogue/modelsFolder';
import { Resolution, type ResolveRolesInput } from './roleResolution';
import { fromOnnx, fromOnnxText, ROLE_ORDER, type ResolvedRole } from './roleResults';

export type {
  InProcessAllowance,
  ResolveRolesInput,
  RoleChoice,
  RoleSettings,
  VisionModelFiles,
} from './roleResolution';
export { ROLE_ORDER, serverName, type ResolvedRole } from './roleResults';

function resolveText(
  role: 'decide' | 'answer' | 'embed',
  r: Resolution,
  input: ResolveRolesInput,
): ResolvedRole {
  const flag = input.localModelPath;
  const broken = flag !== null ? input.unusableModels?.get(flag) : undefined;
  // An unusable --model is said first, and resolution goes on as if it had not been given.
  const notes: string[] = broken ? [`The GGUF ${flag} cannot be used: ${broken.replace(/\.$/, '')}`] : [];
  if (role === 'embed' && input.embedderPath) {
    const given = input.embedderPath;
    const problem = input.unusableModels?.get(given);
    const reason = `Runs in-process from the ONNX sentence embedder given with --embedder / QUIRE_EMBEDDER (\`${given}\`).`;
    // A broken --model is still said, though the embedder given serves this role.
    if (!problem)
      return fromOnnxText(
        given,
        notes.length === 0
          ? reason
          : `${notes.join('; ')}; ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`,
      );
    notes.push(`The text embedder ${given} cannot be used: ${problem.replace(/\.$/, '')}`);
  }
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
  if (local?.catalogue?.runtime === 'onnx-text') {
    const problem = input.unusableModels?.get(local.path);
    if (!problem)
      return withNotes(
        fromOnnxText(
          local.path,
          `Runs in-process (ONNX Runtime) from ${local.catalogue.label}, downloaded by the setup (\`${local.path}\`).`,
        ),
      );
    notes.push(`The text embedder ${local.path} cannot be used: ${problem.replace(/\.$/, '')}`);
  } else if (local) {
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

/** A server's vision model first; else one run in-process (given at launch, else the models folder's). */
function resolveSee(r: Resolution, input: ResolveRolesInput): ResolvedRole {
  const chosen = r.choice('see');
  if (chosen !== null && typeof chosen !== 'string') return chosen;
  const served = r.served('see');
  if (served) return served;
  const notes = typeof chosen === 'string' ? [chosen] : [];
  const withNotes = (result: ResolvedRole): ResolvedRole =>
    notes.length === 0
      ? result
      : {
          ...result,
          reason: `${notes.join('; ')}; ${result.reason.charAt(0).toLowerCase()}${result.reason.slice(1)}`,
        };
  const given = input.visionModel;
  if (given)
    return withNotes(
      r.inProcessVision(
        given,
        `No server offers a vision model: runs in-process (llama.cpp with image input, in its own process) from \`${given.modelPath}\` with the projector \`${given.projectorPath}\`, given with --vision-model / --vision-projector.`,
      ),
    );
  const local = r.local('see');
  if (local?.runtimeReady && local.projectorPath)
    return withNotes(
      r.inProcessVision(
        { modelPath: local.path, projectorPath: local.projectorPath },
        `No server offers a vision model: runs in-process (llama.cpp with image input, in its own process) from ${local.catalogue?.label ?? 'the models folder'} (\`${local.path}\`, projector \`${local.projectorPath}\`).`,
      ),
    );
  const missingNotes = [
    ...notes.map((note) => `; ${note}`),
    ...(local && !local.runtimeReady ? [`; ${notRunnable(local)}`] : []),
  ].join('');
  return r.missing('see', missingNotes);
}

/** One resolution per role, in ROLE_ORDER; `answer` is settled first so `decide` and `see` can reuse it. */
export function resolveRoles(input: ResolveRolesInput): ResolvedRole[] {
  const r = new Resolution(input);
  for (const role of ['answer', 'decide', 'embed'] as const) r.set(role, resolveText(role, r, input));
  r.set('pageEmbed', resolvePageEmbed(r, input));
  r.set('see', resolveSee(r, input));
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
