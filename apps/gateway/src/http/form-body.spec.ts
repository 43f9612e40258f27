import qs from 'qs';
import { QS_OPTIONS, parameterCount, parseForm } from './form-body';

/** What body-parser's urlencoded parser (extended: false) gives: qs with its options. */
const asBodyParser = (text: string) => (text.length === 0 ? {} : qs.parse(text, QS_OPTIONS(parameterCount(text))));

describe('parseForm', () => {
  it.each([
    'type=stream&to=general&topic=lunch&content=Hello+**world**%21',
    'a=1&a=2&a=3',
    'a&b=&=c&&d=e=f',
    'x=%ZZ&y=%E2%82%AC&z=%C3',
    '__proto__=1&constructor=2&toString=3&hasOwnProperty=4',
    '%61=1&a=2',
    'to=%5B1%2C2%5D&principals=[3]',
    'a[b]=1&a[]=2&a[]=3&[5]=x&[]=y',
    'emoji=%F0%9F%98%80&plus=a%2Bb&space=a+b',
    '',
    'ünï=cödé&ünï=again',
  ])('gives what body-parser gives for %j', (text) => {
    const parsed = parseForm(text);
    expect(parsed).toEqual(asBodyParser(text));
    expect(Object.getPrototypeOf(parsed)).toBe(Object.getPrototypeOf(asBodyParser(text)));
  });

  it('gives what body-parser gives for random bodies', () => {
    // A fixed seed: any difference found is reproducible.
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const pieces = ['a', 'b', 'to', '=', '&', '&', '+', '%', '%2', '%20', '%3D', '%26', '%2B', '%ZZ', 'é', '%C3%A9', '%E2', '__proto__', 'constructor', '1', ' ', ';', '.', '[', ']', '%5B', '%5d'];
    for (let i = 0; i < 5000; i++) {
      const length = Math.floor(random() * 12);
      const text = Array.from({ length }, () => pieces[Math.floor(random() * pieces.length)]).join('');
      expect({ text, parsed: parseForm(text) }).toEqual({ text, parsed: asBodyParser(text) });
    }
  });
});
