/**
 * Electron security audit (Doyensec's electronegativity) of the app's source: counts findings by
 * severity, lists each one, and fails on anything above LOW or on a file it could not parse (an
 * unparsed file is an unaudited file). Reviewed exceptions are marked in the code with
 * `eng-disable CHECK_ID` beside a comment that says why.
 */
import { createRequire } from 'node:module';
import runElectronegativity from '@doyensec/electronegativity';

export const SEVERITIES = ['HIGH', 'MEDIUM', 'LOW', 'INFORMATIONAL'] as const;
export type Severity = (typeof SEVERITIES)[number];
/** Findings at these severities fail the audit. */
const FAILING: ReadonlySet<string> = new Set(['HIGH', 'MEDIUM']);
/** Needs the network (Electron's release list); the Electron version is pinned by the lockfile anyway. */
const EXCLUDED_CHECKS = ['AvailableSecurityFixesGlobalCheck'];

export interface Finding {
  id: string;
  severity: string;
  confidence: string;
  where: string;
  description: string;
}

export interface AuditResult {
  electronVersion: string;
  findings: Finding[];
  counts: Record<Severity, number>;
  /** Files the audit could not read: their checks did not run. */
  unparsed: string[];
  ok: boolean;
}

export async function auditElectronSecurity(input: string): Promise<AuditResult> {
  const { version: electronVersion } = createRequire(import.meta.url)('electron/package.json') as {
    version: string;
  };
  const { issues, errors } = await runElectronegativity({
    input,
    isRelative: true,
    electronVersionOverride: electronVersion,
    excludeFromScan: EXCLUDED_CHECKS,
    customScan: [],
    parserPlugins: [],
  });
  const findings = issues.map((issue) => ({
    id: issue.id,
    severity: issue.severity.name,
    confidence: issue.confidence.name,
    where: `${issue.file}:${issue.location.line}:${issue.location.column}`,
    description: issue.description,
  }));
  const counts = Object.fromEntries(
    SEVERITIES.map((severity) => [severity, findings.filter((f) => f.severity === severity).length]),
  ) as Record<Severity, number>;
  const unparsed = errors
    .filter((error) => !error.tolerable)
    .map((error) => `${error.file}: ${error.message}`);
  const ok = !findings.some((f) => FAILING.has(f.severity)) && unparsed.length === 0;
  return { electronVersion, findings, counts, unparsed, ok };
}
