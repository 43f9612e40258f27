import { renderMarkdown } from '../rendering/markdown';

/** Zulip renders channel descriptions with its Markdown processor. */
export const renderDescription = (description: string): string => (description ? renderMarkdown(description) : '');
