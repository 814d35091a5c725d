/**
 * The Models panel shows each role's reason without the terminal commands the engine adds for the
 * CLI: held against the engine's real reasons, with no server, with a server that lacks models, and
 * with the machine's own advice (the one the app is given).
 */
import { describe, expect, it } from 'vitest';
import { roleAdvice, TYPICAL_MACHINE } from '../../src/core/models/catalogue/advice';
import type { ResolveRolesInput } from '../../src/core/models/roleResolution';
import { resolveRoles } from '../../src/core/models/roles';
import { reasonForApp } from '../../src/renderer/src/features/models/roleReason';

const emptyOllama = {
  kind: 'ollama' as const,
  endpoint: 'http://127.0.0.1:11434',
  label: 'Ollama',
  reachable: true,
  error: null,
  models: [],
  served: [],
};

describe('reasons in the app', () => {
  const cases: Array<[string, ResolveRolesInput]> = [
    ['no server, generic advice', { settings: {}, servers: [], localModelPath: null }],
    ['an empty Ollama, generic advice', { settings: {}, servers: [emptyOllama], localModelPath: null }],
    [
      "no server, this machine's advice",
      {
        settings: {},
        servers: [],
        localModelPath: null,
        advice: (role) => roleAdvice(role, TYPICAL_MACHINE, '/models'),
      },
    ],
    [
      'a broken GGUF',
      {
        settings: { answer: { model: '/models/broken.gguf' } },
        servers: [],
        localModelPath: null,
        unusableModels: new Map([['/models/broken.gguf', 'Its header is not a GGUF header.']]),
      },
    ],
  ];
  for (const [what, input] of cases) {
    it(`keeps what is missing and drops the commands: ${what}`, () => {
      for (const role of resolveRoles(input)) {
        if (role.provider !== null) continue;
        const shown = reasonForApp(role.reason);
        expect(role.reason).toMatch(/`/);
        expect(shown, role.reason).not.toMatch(/`|quire models|ollama pull|--\w/);
        expect(shown.length, role.reason).toBeGreaterThan(20);
        expect(shown).toMatch(/\.$/);
      }
    });
  }

  it('says why a chosen file cannot be used', () => {
    const roles = resolveRoles({
      settings: { answer: { model: '/models/broken.gguf' } },
      servers: [],
      localModelPath: null,
      unusableModels: new Map([['/models/broken.gguf', 'Its header is not a GGUF header.']]),
    });
    const answer = roles.find((role) => role.role === 'answer')!;
    expect(reasonForApp(answer.reason)).toContain('Its header is not a GGUF header');
  });
});
