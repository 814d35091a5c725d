import { toErrorInfo } from '../../shared/errors';

/** C0 controls, DEL and C1 controls: what a terminal obeys instead of showing. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;

function visible(char: string): string {
  return `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`;
}

/**
 * Text as the terminal should show it: every control character (a file name can hold ESC, BEL or a
 * carriage return) written as a visible `\xNN`, so no name can clear the screen or retitle the window.
 */
export function shown(text: string): string {
  return text.replace(CONTROL, visible);
}

/** As `shown`, keeping line breaks: for text of several lines (an answer, an error with its usage). */
export function shownLines(text: string): string {
  return text.replace(CONTROL_BUT_NEWLINE, visible);
}

/** Prints lines on stdout, each shown safely: every human-readable line of the CLI goes through here. */
export function say(...lines: string[]): void {
  process.stdout.write(lines.map((line) => `${shown(line)}\n`).join(''));
}

/** As `say`, on stderr: notes and warnings beside the output. */
export function tell(...lines: string[]): void {
  process.stderr.write(lines.map((line) => `${shown(line)}\n`).join(''));
}

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

/** Prints the error the way a user should read it and sets a failing exit code. */
export function reportFailure(error: unknown): void {
  const info = toErrorInfo(error);
  process.stderr.write(`quire: ${shownLines(info.message)}\n`);
  // 2 is ask's "declined or not verified", 64 a usage error (set by the caller): any other failure is 1.
  process.exitCode = 1;
}

// Decimal units, the same figure the app shows (one owner, in shared).
export { formatBytes } from '../../shared/format/bytes';
