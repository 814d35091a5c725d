import type { RoleProposal, SetupProposal } from '../../shared/domain/models';
import { formatBytes } from '../memory/capacity';

const ROLE_NAMES: Record<RoleProposal['role'], string> = {
  decide: 'decide',
  answer: 'answer',
  embed: 'embed',
  pageEmbed: 'pageEmbed',
  see: 'see',
  rerank: 'rerank',
  ocr: 'ocr',
};

function how(role: RoleProposal): string {
  switch (role.source) {
    case 'download':
      return `download ${formatBytes(role.downloadBytes)} (${role.files.map((file) => file.fileName).join(' + ')})`;
    case 'ollama':
      return `ollama pull ${role.ollamaModel} (about ${formatBytes(role.downloadBytes)})`;
    case 'present':
      return 'already here';
    case 'server':
      return `served by ${role.server}`;
  }
}

/** The proposal as a person reads it: per role the model, size, memory and why; then the totals. */
export function printProposal(proposal: SetupProposal, say: (line: string) => void): void {
  const machine = proposal.machine;
  say(
    `This machine: ${formatBytes(machine.totalMemoryBytes)} ${machine.unifiedMemory ? 'unified memory, Metal' : 'RAM, CPU only'}` +
      (machine.freeDiskBytes === null
        ? ''
        : `; ${formatBytes(machine.freeDiskBytes)} free for ${machine.modelsDir}`),
  );
  if (proposal.found.servers.length > 0) say(`Found: ${proposal.found.servers.join(', ')}`);
  say('Proposed models:');
  for (const role of proposal.roles) {
    const memory =
      role.memoryBytes === null ? 'memory unknown' : `${formatBytes(role.memoryBytes)} in memory`;
    say(`  ${ROLE_NAMES[role.role].padEnd(10)} ${role.label}: ${how(role)}, ${memory}`);
    say(`             ${role.reason}. ${role.licence}; ${role.quality}.`);
  }
  const totals = proposal.totals;
  say(
    `Total: ${formatBytes(totals.downloadBytes)} to download; ${formatBytes(totals.memoryBytes)} in memory while answering, ` +
      `${formatBytes(totals.peakMemoryBytes)} while reading page images.`,
  );
  for (const note of proposal.notes) say(`Note: ${note}`);
}
