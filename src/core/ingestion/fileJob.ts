/** Someone waiting for a file's reading to end (a password given): told when it is indexed or fails. */
export interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * How soon a file is read: `asked`, the user asked for this one file (Retry, a password) and waits
 * for it, so it goes first and its reading jumps ahead of background work in the pool; `urgent`, a
 * folder just added; `normal`, every other change.
 */
export type FilePriority = 'asked' | 'urgent' | 'normal';

/** A file waiting to be read, being read, or waiting to be tried again. */
export interface FileJob {
  documentId: string;
  attempt: number;
  estimatedPages: number;
  asked: boolean;
  waiter?: Waiter;
}

/** The scheduler's key of a file's reading. */
export function fileKey(documentId: string): string {
  return `file:${documentId}`;
}
