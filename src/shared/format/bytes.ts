/*
 * Sizes in words, for the app and the command line alike: decimal units (1 GB = 10^9 bytes), as the
 * engine's own sentences, the model hosts and file managers give them, so one size reads the same everywhere.
 */

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** "1.5 KB", "25.3 GB"; a dash for a size that is not one. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  // Number() drops trailing zeros: "1.50" reads as "1.5", "16.0" as "16".
  return `${Number(value.toFixed(digits))} ${BYTE_UNITS[unit]}`;
}
