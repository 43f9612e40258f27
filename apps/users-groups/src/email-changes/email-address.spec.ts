import { isValidEmailAddress } from './email-address';

describe('isValidEmailAddress (Django’s EmailValidator, as Zulip uses it)', () => {
  it.each([
    'plain@example.org',
    'first.last+tag@mail.example.co.uk',
    "o'brien!#$%&*=?^_`{|}~-@example.org",
    '"odd@one"@example.org',
    '"escaped\\ space"@example.org',
    'me@[127.0.0.1]',
    'me@[::1]',
    'me@localhost',
    'me@bücher.example',
    'UPPER@EXAMPLE.ORG',
  ])('takes %j', (address) => {
    expect(isValidEmailAddress(address)).toBe(true);
  });

  it.each([
    '',
    'not-an-address',
    'no-domain@',
    '@example.org',
    'a@b',
    'two@@example.org',
    'dots..twice@example.org',
    '.leading@example.org',
    'trailing.@example.org',
    'space in@example.org',
    '"odd one"@example.org',
    'x@exa_mple.org',
    'x@-example.org',
    'x@example.org-',
    'x@example.c',
    'x@[999.1.1.1]',
    'ünï@example.org',
    `${'a'.repeat(243)}@example.org`,
  ])('refuses %j', (address) => {
    expect(isValidEmailAddress(address)).toBe(false);
  });
});
