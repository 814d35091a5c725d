/**
 * What a component test can tell the stand-in engine inside the harness page (`window.standIn`).
 * Shared by the page and the Playwright specs, so it holds types only: no DOM, no Node.
 */
import type { CallName, EventName } from '../../../src/shared/ipc/contract';
import type { ErrorInfo } from '../../../src/shared/errors';

/** An answer to a call: a value of the contract's output type, or an error the user is shown. */
export type StandInAnswer = { value: unknown } | { error: ErrorInfo };

/** The panels the harness can mount, one per page. */
/** `app` is the whole window: header, library, chat, models and settings. */
export type PanelName = 'app' | 'chat' | 'library' | 'models' | 'viewer' | 'otherApps';

export interface HarnessSetup {
  panel: PanelName;
  /** Answers that replace the stand-in's defaults from the first call on. */
  answers?: Partial<Record<CallName, StandInAnswer>>;
  /** The page the viewer panel opens at. */
  viewer?: { documentId: string; page: number; title: string };
}

export interface RecordedCall {
  name: CallName;
  input: unknown;
  /** The id the page sent with a call it may cancel. */
  callId?: number;
  /** Set when the page cancelled the call. */
  cancelled?: boolean;
}

export interface StandInControl {
  /** Every call the panel made, in order. */
  readonly calls: RecordedCall[];
  /** Answers every later `name` call with `answer`; a value is checked against the contract first. */
  respond(name: CallName, answer: StandInAnswer): void;
  /** Holds every later `name` call unanswered until `release(name)`. */
  hold(name: CallName): void;
  release(name: CallName): void;
  /** Sends an event as the engine would; the payload is checked against the contract first. */
  emit(event: EventName, payload: unknown): void;
}

export const SETUP_KEY = '__harnessSetup';
