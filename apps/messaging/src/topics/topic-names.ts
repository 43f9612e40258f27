import { EMPTY_TOPIC_DISPLAY_NAME } from '@teamchat/zulip';

/**
 * A topic name as a client gives it: `(no topic)` and the empty-topic display name stand for
 * the empty topic "" (Zulip's maybe_rename_general_chat_to_empty_topic and
 * maybe_rename_no_topic_to_empty_topic). Exact matches only, nothing stripped.
 */
export const topicFromClient = (name: string): string =>
  name === '(no topic)' || name === EMPTY_TOPIC_DISPLAY_NAME ? '' : name;

/** The empty topic is shown as `general chat` to a client that did not ask for "". */
export const topicForClient = (name: string, allowEmptyTopicName: boolean): string =>
  name === '' && !allowEmptyTopicName ? EMPTY_TOPIC_DISPLAY_NAME : name;
