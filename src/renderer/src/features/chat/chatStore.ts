import { create } from 'zustand';
import type { AgentEvent, ConversationSummary } from '../../../../shared/domain/agent';
import type { Scope } from '../../../../shared/domain/scope';
import { scopeLabel } from '../../../../shared/domain/scopeText';
import type { ErrorInfo } from '../../../../shared/errors';
import { quire } from '../../ipc/client';
import { errorOf } from '../../lib/callResult';
import { applyAgentEvent, runFromTurn, type RunView } from './runReducer';

export interface TurnView {
  runId: string;
  question: string;
  startedAt: number;
  /** What the question searched, in the user's words. */
  searched?: string | undefined;
}

export interface ChatState {
  conversations: ConversationSummary[];
  /** Null for a new conversation that has no turns yet. */
  conversationId: string | null;
  turns: TurnView[];
  /** Every run seen, by id; events may arrive before chat.ask returns, so runs are keyed apart from turns. */
  runs: Record<string, RunView>;
  asking: boolean;
  loadingConversation: boolean;
  conversationError: string | null;

  /** What the next question searches (the conversation's scope); null for the whole library. */
  scope: Scope | null;
  /** Sets the scope for the next question; null asks the whole library. */
  setScope: (scope: Scope | null) => void;
  /** "Ask about this": a new conversation scoped to one document or folder, then the question box. */
  askAbout: (scope: Scope) => void;
  ask: (question: string) => Promise<ErrorInfo | null>;
  cancel: (runId: string) => Promise<ErrorInfo | null>;
  /** Answers a paused run's question: a choice's index, or null to let the agent pick and say so. */
  clarify: (runId: string, choice: number | null) => Promise<ErrorInfo | null>;
  /** Whether compound questions show their plan for approval first (off unless the user turns it on). */
  reviewPlan: boolean;
  setReviewPlan: (on: boolean) => void;
  /** Approves a paused run's plan: the sub-questions as shown or edited. */
  approvePlan: (runId: string, subQuestions: string[]) => Promise<ErrorInfo | null>;
  openConversation: (conversationId: string) => Promise<void>;
  newConversation: () => void;
  applyEvent: (event: AgentEvent) => void;
}

const REVIEW_PLAN_KEY = 'quire.reviewPlan';

function readReviewPlan(): boolean {
  try {
    return localStorage.getItem(REVIEW_PLAN_KEY) === 'on';
  } catch {
    return false;
  }
}

export const useChatStore = create<ChatState>((set, get) => ({
  conversations: [],
  conversationId: null,
  turns: [],
  runs: {},
  asking: false,
  loadingConversation: false,
  conversationError: null,
  reviewPlan: readReviewPlan(),
  scope: null,

  setScope: (scope) => set({ scope: scope && hasItems(scope) ? scope : null }),

  askAbout: (scope) => {
    set({ conversationId: null, turns: [], conversationError: null, scope });
    document.getElementById('question-input')?.focus();
  },

  ask: async (question) => {
    set({ asking: true });
    const { conversationId, reviewPlan, scope } = get();
    // The scope goes with every question, so what the chip shows is what is searched.
    const result = await quire['chat.ask'](
      conversationId
        ? { question, conversationId, reviewPlan, scope }
        : { question, reviewPlan, ...(scope ? { scope } : {}) },
    );
    if (!result.ok) {
      set({ asking: false });
      return result.error;
    }
    const { runId } = result.value;
    set((state) => ({
      asking: false,
      conversationId: result.value.conversationId,
      turns: [...state.turns, { runId, question, startedAt: Date.now(), searched: scopeLabel(scope) }],
      runs: state.runs[runId] ? state.runs : { ...state.runs, [runId]: applyStart(runId) },
    }));
    void refreshConversations();
    return null;
  },

  cancel: async (runId) => errorOf(await quire['chat.cancel']({ runId })),

  clarify: async (runId, choice) => {
    const conversationId = get().conversationId;
    if (!conversationId) return { code: 'not_found', message: 'No conversation is open.' };
    return errorOf(await quire['chat.clarify']({ conversationId, runId, choice }));
  },

  setReviewPlan: (on) => {
    set({ reviewPlan: on });
    try {
      localStorage.setItem(REVIEW_PLAN_KEY, on ? 'on' : 'off');
    } catch {
      // Storage can be unavailable (private windows): the setting then lasts for this session.
    }
  },

  approvePlan: async (runId, subQuestions) => {
    const conversationId = get().conversationId;
    if (!conversationId) return { code: 'not_found', message: 'No conversation is open.' };
    return errorOf(await quire['chat.approvePlan']({ conversationId, runId, subQuestions }));
  },

  openConversation: async (conversationId) => {
    set({ loadingConversation: true, conversationError: null });
    const result = await quire['chat.conversation']({ conversationId });
    if (!result.ok) {
      set({ loadingConversation: false, conversationError: result.error.message });
      return;
    }
    const conversation = result.value;
    set((state) => {
      const runs = { ...state.runs };
      for (const turn of conversation.turns) {
        // A run still streaming here knows more than the stored turn.
        if (!runs[turn.runId] || runs[turn.runId]?.status !== 'running') runs[turn.runId] = runFromTurn(turn);
      }
      return {
        loadingConversation: false,
        conversationId: conversation.id,
        turns: conversation.turns.map((turn) => ({
          runId: turn.runId,
          question: turn.question,
          startedAt: turn.startedAt,
          searched: turn.searched,
        })),
        runs,
        scope: conversation.scope ?? null,
      };
    });
  },

  newConversation: () => set({ conversationId: null, turns: [], conversationError: null, scope: null }),

  applyEvent: (event) => {
    set((state) => ({
      runs: { ...state.runs, [event.runId]: applyAgentEvent(state.runs[event.runId], event) },
    }));
    if (event.type === 'complete') void refreshConversations();
  },
}));

function hasItems(scope: Scope): boolean {
  return (scope.documents?.length ?? 0) + (scope.paths?.length ?? 0) + (scope.collections?.length ?? 0) > 0;
}

function applyStart(runId: string): RunView {
  return applyAgentEvent(undefined, { type: 'status', runId, at: Date.now(), message: 'Starting' });
}

async function refreshConversations(): Promise<void> {
  const result = await quire['chat.conversations']({});
  if (result.ok) useChatStore.setState({ conversations: result.value });
}

/** The run of the current conversation that is still going, if any. */
export function selectRunningRunId(state: ChatState): string | null {
  for (let index = state.turns.length - 1; index >= 0; index -= 1) {
    const runId = state.turns[index]?.runId;
    if (runId && state.runs[runId]?.status === 'running') return runId;
  }
  return null;
}

export function startChatSync(onConnected: (listener: () => void) => () => void): () => void {
  const stops = [
    quire.on('chat.onEvent', (event) => useChatStore.getState().applyEvent(event)),
    onConnected(() => {
      void refreshConversations();
      const { conversationId } = useChatStore.getState();
      if (conversationId) void useChatStore.getState().openConversation(conversationId);
    }),
  ];
  return () => stops.forEach((stop) => stop());
}
