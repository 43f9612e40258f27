import { linkedPathIds } from '@teamchat/contracts';

/** Zulip's IMAGE_EXTENSIONS: a link to one of these gets an inline preview, so the message "has" an image. */
const IMAGE_LINK = /\.(?:bmp|gif|jpe|jpeg|jpg|png|webp)(?:[?#]|$)/i;

export interface ContentFlags {
  hasLink: boolean;
  hasImage: boolean;
  hasAttachment: boolean;
}

/**
 * What a message contains, as the `has:` narrow operators ask (Zulip's has_link, has_image and
 * has_attachment, which its renderer sets): any link in the rendered HTML; an image (an
 * `<img>`, or a link to an image file, which Zulip previews); a link to an uploaded file.
 */
export function contentFlags(content: string, renderedContent: string): ContentFlags {
  const hrefs = [...renderedContent.matchAll(/<a\s[^>]*?href="([^"]*)"/g)].map((match) => match[1]);
  return {
    hasLink: hrefs.length > 0,
    hasImage: /<img\s/.test(renderedContent) || hrefs.some((href) => IMAGE_LINK.test(href)),
    hasAttachment: content.includes('/user_uploads/') && linkedPathIds(content).length > 0,
  };
}
