import { contentFlags } from './content-flags';
import { renderMarkdown } from './markdown';

const flagsOf = (content: string) => contentFlags(content, renderMarkdown(content));

describe('contentFlags', () => {
  it('finds nothing in plain text', () => {
    expect(flagsOf('just words, no links')).toEqual({ hasLink: false, hasImage: false, hasAttachment: false });
  });

  it('finds a link, written or bare', () => {
    expect(flagsOf('see [docs](https://example.com/docs)')).toMatchObject({ hasLink: true, hasImage: false });
    expect(flagsOf('see https://example.com')).toMatchObject({ hasLink: true, hasImage: false });
  });

  it('finds an image: an embedded one or a link to an image file', () => {
    expect(flagsOf('![cat](https://example.com/cat.png)')).toMatchObject({ hasImage: true });
    expect(flagsOf('look https://example.com/photo.JPG?size=2')).toMatchObject({ hasLink: true, hasImage: true });
    expect(flagsOf('not an image https://example.com/png')).toMatchObject({ hasImage: false });
  });

  it('finds an uploaded file', () => {
    const upload = '/user_uploads/2/ab/abcdefghijklmnopqrstuvwx/report.pdf';
    expect(flagsOf(`[report.pdf](${upload})`)).toEqual({ hasLink: true, hasImage: false, hasAttachment: true });
    expect(flagsOf('/user_uploads/ alone is no file')).toMatchObject({ hasAttachment: false });
  });
});
