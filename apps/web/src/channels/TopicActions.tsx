import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { ok, typedApi } from '../api/typed-client';
import { FOLLOWED, MUTED, mayMove, topicKey, type ChatState } from '../events/chat-state';
import { MoveMessages } from '../messages/MoveMessages';
import { narrowHash } from '../narrow/narrow';

/** Zulip's prefix of a resolved topic. */
export const RESOLVED = '✔ ';

/**
 * The toolbar "Topic actions" of a topic being read: mute or follow it (POST /user_topics; the
 * user_topic event sets the buttons) and mark it resolved or not (the topic renamed with or
 * without "✔ " for all its messages; the view follows it), and move it (when I may).
 */
export function TopicActions({ state, channelId, channelName, topic, messageId }: { state: ChatState; channelId: number; channelName: string; topic: string; messageId?: number }) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const [moving, setMoving] = useState(false);
  const known = state.topicPolicies[topicKey(channelId, topic)] ?? 0;
  // The choice shows at once and stays until the user_topic event that confirms it arrives (an
  // earlier choice's event may come first) or the server refuses it.
  const [chosen, setChosen] = useState<{ topic: string; policy: number } | null>(null);
  const policy = chosen && chosen.topic === topic ? chosen.policy : known;
  useEffect(() => {
    if (chosen && (chosen.topic !== topic || chosen.policy === known)) setChosen(null);
  }, [chosen, known, topic]);
  const resolved = topic.startsWith(RESOLVED);
  const act = (work: () => Promise<unknown>) => {
    setError(null);
    return work().then(
      () => true,
      (failure: unknown) => {
        setError(failure instanceof ApiError ? failure.message : t('Something went wrong. Try again.'));
        return false;
      },
    );
  };
  const setPolicy = (next: number) => {
    const wanted = policy === next ? 0 : next;
    setChosen({ topic, policy: wanted });
    void act(() => ok(typedApi.POST('/user_topics', { body: { stream_id: channelId, topic, visibility_policy: wanted } }))).then((done) => done || setChosen(null));
  };

  async function toggleResolved() {
    if (messageId === undefined) return;
    const renamed = resolved ? topic.slice(RESOLVED.length) : `${RESOLVED}${topic}`;
    const done = await act(() => ok(typedApi.PATCH('/messages/{message_id}', { params: { path: { message_id: messageId } }, body: { topic: renamed, propagate_mode: 'change_all', send_notification_to_old_thread: false, send_notification_to_new_thread: false } })));
    if (done) window.location.hash = narrowHash({ kind: 'channel', channelId, channelName, topic: renamed });
  }

  return (
    <div className="topic-actions" role="toolbar" aria-label={t('Topic actions')}>
      <button type="button" className="secondary" aria-pressed={policy === MUTED} onClick={() => setPolicy(MUTED)}>
        {t('Mute topic')}
      </button>
      <button type="button" className="secondary" aria-pressed={policy === FOLLOWED} onClick={() => setPolicy(FOLLOWED)}>
        {t('Follow topic')}
      </button>
      <button type="button" className="secondary" disabled={messageId === undefined} onClick={() => void toggleResolved()}>
        {resolved ? t('Mark as unresolved') : t('Mark as resolved')}
      </button>
      {mayMove(state, 'topic') && (
        <button type="button" className="secondary" aria-expanded={moving} disabled={messageId === undefined} onClick={() => setMoving(!moving)}>
          {t('Move topic')}
        </button>
      )}
      {moving && messageId !== undefined && (
        <MoveMessages state={state} messageId={messageId} channelId={channelId} topic={topic} mode="change_all" onClose={() => setMoving(false)} />
      )}
      {error && (
        <span role="alert" className="error">
          {error}
        </span>
      )}
    </div>
  );
}
