import { useId, useMemo } from 'react';
import { useChatStore } from './chatStore';
import { conversationLabels } from './conversationLabels';

const NEW_CONVERSATION = '';

export function ConversationPicker() {
  const conversations = useChatStore((state) => state.conversations);
  const conversationId = useChatStore((state) => state.conversationId);
  const openConversation = useChatStore((state) => state.openConversation);
  const newConversation = useChatStore((state) => state.newConversation);
  const selectId = useId();
  const current = conversationId ?? NEW_CONVERSATION;
  const labels = useMemo(() => conversationLabels(conversations), [conversations]);
  const knowsCurrent = current === NEW_CONVERSATION || conversations.some((item) => item.id === current);

  return (
    <div className="conversation-picker">
      <label htmlFor={selectId} className="visually-hidden">
        Conversation
      </label>
      <select
        id={selectId}
        className="select"
        value={current}
        data-testid="conversation-select"
        onChange={(event) => {
          const next = event.target.value;
          if (next === NEW_CONVERSATION) newConversation();
          else void openConversation(next);
        }}
      >
        <option value={NEW_CONVERSATION}>New conversation</option>
        {!knowsCurrent && <option value={current}>Current conversation</option>}
        {conversations.map((conversation) => (
          <option key={conversation.id} value={conversation.id}>
            {labels.get(conversation.id)}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="button button--small"
        disabled={conversationId === null}
        data-testid="new-conversation"
        onClick={newConversation}
      >
        New
      </button>
    </div>
  );
}
