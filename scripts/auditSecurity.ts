/** `npm run audit:security [folder]`: the Electron security audit of `src` (or the folder given). */
import { auditElectronSecurity, SEVERITIES } from './security/audit';

const input = process.argv[2] ?? 'src';
const result = await auditElectronSecurity(input);
for (const f of result.findings) {
  console.log(`${f.severity.padEnd(13)} ${f.id} ${f.where} (${f.confidence}): ${f.description}`);
}
for (const file of result.unparsed) console.log(`NOT PARSED    ${file}`);
const counts = SEVERITIES.map((severity) => `${result.counts[severity]} ${severity.toLowerCase()}`).join(
  ', ',
);
console.log(
  `electronegativity on ${input} (Electron ${result.electronVersion}): ${counts}; ` +
    `${result.unparsed.length} files not parsed${result.ok ? '' : '; failing: findings above low'}`,
);
process.exit(result.ok ? 0 : 1);
