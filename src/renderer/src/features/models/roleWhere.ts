import type { RoleResolution } from '../../../../shared/domain/models';

/** Where a role's model runs: on a server (its address), or inside Quire in a process of its own. */
export function whereItRuns(role: RoleResolution): string | null {
  if (role.provider === null) return null;
  if (role.endpoint) return `On a server: ${role.endpoint}`;
  return role.role === 'see'
    ? 'In-process: llama.cpp with image input, in its own process on this computer'
    : 'In-process, on this computer';
}
