import type { Scope } from '../../../../shared/domain/scope';
import { useChatStore } from './chatStore';

interface AskAboutButtonProps {
  scope: Scope;
  /** What is asked about, for the accessible name ("report.pdf", "Contracts"). */
  name: string;
  className?: string;
  /** Called after the scope is set, e.g. to close the page viewer so the question box shows. */
  onAsked?: () => void;
}

/** "Ask about this": starts a conversation that searches only this document, folder or collection. */
export function AskAboutButton({
  scope,
  name,
  className = 'button button--small button--quiet',
  onAsked,
}: AskAboutButtonProps) {
  const askAbout = useChatStore((state) => state.askAbout);
  return (
    <button
      type="button"
      className={className}
      aria-label={`Ask about this: ${name}`}
      data-testid="ask-about-button"
      onClick={() => {
        askAbout(scope);
        onAsked?.();
      }}
    >
      Ask about this
    </button>
  );
}
