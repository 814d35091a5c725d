import { useEffect, useRef } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { SetupCard } from '../models/SetupCard';
import { setupNeeded, useModelsStore } from '../models/modelsStore';
import { useChatStore } from './chatStore';
import { ConversationPicker } from './ConversationPicker';
import { QuestionBox } from './QuestionBox';
import { SearchNotice } from './SearchNotice';
import { ExportConversationButton } from './TakeAway';
import { TurnView } from './TurnView';
import './chat.css';

/** Within this distance of the bottom, new text keeps the view pinned to it. */
const STICKY_PX = 80;

export function ChatPanel() {
  const turns = useChatStore((state) => state.turns);
  const conversationError = useChatStore((state) => state.conversationError);
  const loadingConversation = useChatStore((state) => state.loadingConversation);
  const lastRunId = turns.at(-1)?.runId;
  const lastAnswerLength = useChatStore((state) =>
    lastRunId ? (state.runs[lastRunId]?.answer.length ?? 0) : 0,
  );
  const showSetup = useModelsStore(setupNeeded);
  const scrollRef = useRef<HTMLDivElement>(null);
  const pinnedRef = useRef(true);

  useEffect(() => {
    const element = scrollRef.current;
    if (element && pinnedRef.current) element.scrollTop = element.scrollHeight;
  }, [turns.length, lastAnswerLength]);

  return (
    <main className="chat" aria-label="Questions and answers">
      <header className="panel-header chat__header">
        <h2 className="panel-title">Ask</h2>
        <ExportConversationButton />
        <ConversationPicker />
      </header>
      <div
        ref={scrollRef}
        className="chat__turns"
        onScroll={(event) => {
          const element = event.currentTarget;
          pinnedRef.current = element.scrollHeight - element.scrollTop - element.clientHeight < STICKY_PX;
        }}
      >
        <ErrorMessage error={conversationError} />
        {loadingConversation && <p className="muted small">Loading conversation…</p>}
        {turns.length === 0 && !loadingConversation && showSetup && <SetupCard />}
        {turns.length === 0 && !loadingConversation && !showSetup && (
          <div className="chat__empty">
            <p className="chat__empty-title">Ask a question about your documents</p>
            <p className="muted">
              Answers cite the pages they come from. Select a citation to see the page with the passage
              highlighted.
            </p>
          </div>
        )}
        {turns.map((turn, index) => (
          <TurnView key={turn.runId} turn={turn} isLatest={index === turns.length - 1} />
        ))}
      </div>
      <SearchNotice />
      <QuestionBox />
    </main>
  );
}
