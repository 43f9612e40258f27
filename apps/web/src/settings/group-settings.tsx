import { useTranslation } from 'react-i18next';
import type { GroupSettingValue } from '../api/types';
import type { ChatState } from '../events/chat-state';

/** The system groups a permission setting may name, as Zulip's settings pages offer them. */
const SYSTEM_GROUPS = ['role:everyone', 'role:members', 'role:fullmembers', 'role:moderators', 'role:administrators', 'role:owners', 'role:nobody'];

/**
 * A permission setting as a combobox of the system groups ("Everyone" … "Nobody"); a value that
 * names people or several groups shows as "Custom" (kept unless another choice is made).
 * `onChange` gets the chosen group's id.
 */
export function GroupSettingSelect({ state, label, value, onChange }: { state: ChatState; label: string; value: GroupSettingValue | undefined; onChange: (groupId: number) => void }) {
  const { t } = useTranslation();
  const names: Record<string, string> = {
    'role:everyone': t('Everyone'),
    'role:members': t('Members'),
    'role:fullmembers': t('Full members'),
    'role:moderators': t('Moderators'),
    'role:administrators': t('Administrators'),
    'role:owners': t('Owners'),
    'role:nobody': t('Nobody'),
  };
  const groups = SYSTEM_GROUPS.map((name) => state.groups.find((group) => group.is_system_group && group.name === name)).filter((group) => group !== undefined);
  const current = typeof value === 'number' && groups.some((group) => group.id === value) ? String(value) : 'custom';
  return (
    <select aria-label={label} value={current} onChange={(event) => event.target.value !== 'custom' && onChange(Number(event.target.value))}>
      {current === 'custom' && (
        <option value="custom" disabled>
          {t('Custom')}
        </option>
      )}
      {groups.map((group) => (
        <option key={group.id} value={group.id}>
          {names[group.name] ?? group.name}
        </option>
      ))}
    </select>
  );
}
