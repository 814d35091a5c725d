import { QuireError } from '../../shared/errors';

/**
 * The exit code of a command line Quire cannot read (sysexits' EX_USAGE): apart from 1 (failed) and
 * from ask's 2 (declined or not verified), so a script can tell a typo from an answer it should not trust.
 */
export const USAGE_EXIT_CODE = 64;

/** The command line itself is wrong: an unknown command or option, a missing argument, a bad value. */
export class UsageError extends QuireError {
  constructor(message: string) {
    super('invalid_input', message);
    this.name = 'UsageError';
  }
}

/** Node's parseArgs rejects an unknown option or a missing value with an `ERR_PARSE_ARGS_*` code. */
function isParseArgsError(error: unknown): error is Error {
  return (
    error instanceof Error &&
    'code' in error &&
    typeof error.code === 'string' &&
    error.code.startsWith('ERR_PARSE_ARGS_')
  );
}

/** The exit code for a command that threw: 64 for a usage error, else 1. */
export function failureExitCode(error: unknown): number {
  return error instanceof UsageError || isParseArgsError(error) ? USAGE_EXIT_CODE : 1;
}
