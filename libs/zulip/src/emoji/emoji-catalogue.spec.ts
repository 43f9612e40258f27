import { EmojiCatalogue, emojiCatalogue, emojiCodeOf } from './emoji-catalogue';

describe('emojiCodeOf', () => {
  it.each([
    ['1F44D', '1f44d'],
    ['2764-FE0F', '2764'],
    ['0023-FE0F-20E3', '0023-20e3'],
    ['1F441-FE0F-200D-1F5E8-FE0F', '1f441-200d-1f5e8'],
    ['1F468-200D-1F469-200D-1F467', '1f468-200d-1f469-200d-1f467'],
  ])('turns %s into Zulip’s code %s (lower case, without FE0F)', (unified, code) => {
    expect(emojiCodeOf(unified)).toBe(code);
  });
});

describe('the installed catalogue', () => {
  const catalogue = emojiCatalogue();

  it.each([
    ['+1', '1f44d'],
    ['thumbsup', '1f44d'],
    ['thumbs_up', '1f44d'],
    ['grinning', '1f600'],
    ['heart', '2764'],
    ['octopus', '1f419'],
    ['car', '1f697'],
    ['hash', '0023-20e3'],
    ['working_on_it', '1f6e0'],
    ['hurt', '1f915'],
    ['palm_tree', '1f334'],
  ])('names %s as %s', (name, code) => {
    expect(catalogue.codeOf(name)).toBe(code);
    expect(catalogue.isCode(code)).toBe(true);
  });

  it('knows neither unknown names nor unknown or qualified codes', () => {
    expect(catalogue.codeOf('not_an_emoji')).toBeUndefined();
    expect(catalogue.codeOf('zulip')).toBeUndefined();
    expect(catalogue.codeOf('')).toBeUndefined();
    expect(catalogue.isCode('1F44D')).toBe(false);
    expect(catalogue.isCode('2764-fe0f')).toBe(false);
    expect(catalogue.isCode('zulip')).toBe(false);
    expect(catalogue.isCode('')).toBe(false);
  });

  it('is built once', () => {
    expect(emojiCatalogue()).toBe(catalogue);
  });
});

describe('EmojiCatalogue.fromEntries', () => {
  it('keeps the first owner of a name, and adds extra names only when free and pointing at a known code', () => {
    const catalogue = EmojiCatalogue.fromEntries(
      [
        { unified: '1F600', short_names: ['grinning', 'shared'] },
        { unified: '1F601', short_names: ['shared', 'beam'] },
      ],
      { grinning: '1f601', happy: '1f600', ghost: '1f47b' },
    );
    expect(catalogue.codeOf('shared')).toBe('1f600');
    expect(catalogue.codeOf('grinning')).toBe('1f600');
    expect(catalogue.codeOf('happy')).toBe('1f600');
    expect(catalogue.codeOf('ghost')).toBeUndefined();
  });
});
