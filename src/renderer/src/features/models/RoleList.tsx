import type { RoleResolution, SetupRole } from '../../../../shared/domain/models';
import { RoleChoiceSelect } from './RoleChoiceSelect';
import { reasonForApp } from './roleReason';
import { whereItRuns } from './roleWhere';

export const ROLE_LABELS: Record<SetupRole, string> = {
  decide: 'Deciding the next step',
  answer: 'Writing answers',
  embed: 'Text embeddings',
  pageEmbed: 'Page image embeddings',
  see: 'Reading page images',
  rerank: 'Re-ordering search results',
  ocr: 'Reading scanned pages (OCR)',
};

const PROVIDER_LABELS = {
  ollama: 'Ollama',
  openai: 'OpenAI-compatible',
  llama: 'llama.cpp',
  onnx: 'ONNX Runtime',
  builtin: 'Built-in',
} as const;

interface RoleListProps {
  roles: readonly RoleResolution[];
  /** Opens the setup's proposed set: offered on a role nothing serves. */
  onGetModel: () => void;
}

export function RoleList({ roles, onGetModel }: RoleListProps) {
  // One way to the set-up is enough: on the first role nothing serves.
  const firstMissing = roles.find((role) => role.provider === null)?.role;
  return (
    <ul className="role-list">
      {roles.map((role) => (
        <li
          key={role.role}
          className={`role-row${role.provider === null ? ' role-row--missing' : ''}`}
          data-testid="role-row"
          data-role={role.role}
        >
          <div className="role-row__head">
            <span className="role-row__name">{ROLE_LABELS[role.role]}</span>
            <span className={`badge${role.provider ? ' badge--indexed' : ''}`}>
              {role.provider ? PROVIDER_LABELS[role.provider] : 'Not set up'}
            </span>
          </div>
          {role.model && (
            <p className="role-row__model" data-testid="role-model">
              {role.model}
            </p>
          )}
          <p className="role-row__reason muted small">{reasonForApp(role.reason)}</p>
          {role.role === firstMissing && (
            <button
              type="button"
              className="button button--link button--small role-row__get"
              data-testid="role-get-model"
              onClick={onGetModel}
            >
              Get a model
            </button>
          )}
          {whereItRuns(role) && (
            <p className="role-row__endpoint muted small" data-testid="role-where">
              {whereItRuns(role)}
            </p>
          )}
          <RoleChoiceSelect role={role.role} label={ROLE_LABELS[role.role]} />
        </li>
      ))}
    </ul>
  );
}

export function providerLabel(kind: keyof typeof PROVIDER_LABELS): string {
  return PROVIDER_LABELS[kind];
}
