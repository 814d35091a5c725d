import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Configuration } from 'app-builder-lib';

/** The Electron fuses every installer ships with, and the value each must have. */
export const requiredFuses = {
  runAsNode: false,
  enableNodeOptionsEnvironmentVariable: false,
  enableNodeCliInspectArguments: false,
  enableEmbeddedAsarIntegrityValidation: true,
  onlyLoadAppFromAsar: true,
  enableCookieEncryption: true,
} as const;

/** The only hardened-runtime exceptions the app may ask for. */
export const allowedEntitlements = new Set([
  'com.apple.security.cs.allow-jit',
  // Allowed only for a native module that loads code signed by someone else; none does today.
  'com.apple.security.cs.disable-library-validation',
]);

/** Info.plist strings macOS shows before the app reads a protected place the user added a folder from. */
export const requiredUsageStrings = [
  'NSDocumentsFolderUsageDescription',
  'NSDesktopFolderUsageDescription',
  'NSDownloadsFolderUsageDescription',
  'NSRemovableVolumesUsageDescription',
  'NSNetworkVolumesUsageDescription',
];

/** Problems with fuses, entitlements (each one explained by a comment right above it) and usage strings. */
export function hardeningProblems(root: string, config: Configuration): string[] {
  const problems: string[] = [];
  const fuses = (config.electronFuses ?? {}) as Record<string, unknown>;
  for (const [fuse, wanted] of Object.entries(requiredFuses)) {
    if (fuses[fuse] !== wanted) problems.push(`electronFuses.${fuse} must be ${wanted}`);
  }

  const mac = config.mac ?? {};
  if (mac.hardenedRuntime !== true) problems.push('mac.hardenedRuntime must be true');
  for (const file of new Set([mac.entitlements, mac.entitlementsInherit])) {
    if (!file) {
      problems.push('mac.entitlements and mac.entitlementsInherit must name a plist');
      continue;
    }
    problems.push(...entitlementProblems(file, readFileSync(join(root, file), 'utf8')));
  }

  const info = (mac.extendInfo ?? {}) as Record<string, unknown>;
  for (const key of requiredUsageStrings) {
    if (typeof info[key] !== 'string' || !(info[key] as string).trim()) {
      problems.push(`mac.extendInfo.${key} is missing`);
    }
  }
  return problems;
}

export function entitlementProblems(file: string, plist: string): string[] {
  const problems: string[] = [];
  for (const match of plist.matchAll(/(<!--[\s\S]*?-->\s*)?<key>([^<]+)<\/key>/g)) {
    const key = match[2]!;
    if (!allowedEntitlements.has(key)) problems.push(`${file}: ${key} is not an entitlement Quire needs`);
    if (!match[1]) problems.push(`${file}: ${key} has no comment saying why`);
  }
  return problems;
}
