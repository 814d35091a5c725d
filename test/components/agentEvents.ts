/** Agent events as the engine streams them to the chat panel, written by a test. */
import type { AgentEvent } from '../../src/shared/domain/agent';
import type { StandIn } from './componentTest';

/** An agent event as a test writes it: the run and the time are filled in when it is sent. */
export type EventInput = {
  [K in AgentEvent['type']]: Omit<Extract<AgentEvent, { type: K }>, 'runId' | 'at'>;
}[AgentEvent['type']];

/** Sends the run's events in order, as the engine streams them. */
export async function stream(standIn: StandIn, runId: string, events: EventInput[]): Promise<void> {
  for (const event of events) {
    await standIn.emit('chat.onEvent', { ...event, runId, at: Date.now() } as AgentEvent);
  }
}
