import { useTranslation } from 'react-i18next';

/** A conversation's unread count, beside its link (so the link's name stays the conversation's name). */
export function UnreadCount({ count }: { count: number }) {
  const { t } = useTranslation();
  if (count === 0) return null;
  return (
    <span className="unread" aria-label={t('{{count}} unread', { count })}>
      {count}
    </span>
  );
}
