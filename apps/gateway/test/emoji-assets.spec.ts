import { Factory, TestSystem, expectSuccess, type TestUser } from '@teamchat/testing';
import { emojiCatalogue } from '@teamchat/zulip';

const DATA = '/static/generated/emoji/emoji_api_data.json';

describe('emoji assets (server_emoji_data_url and the images)', () => {
  let system: TestSystem;
  let member: TestUser;
  let subdomain: string;
  let realm: { id: number };
  let factory: Factory;
  let codeToNames: Record<string, string[]>;

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'emoji' });
    member = org.member;
    subdomain = org.realm.subdomain;
    realm = org.realm;
    const res = await system.api.get<{ code_to_names: Record<string, string[]> }>(DATA);
    codeToNames = res.body.code_to_names;
  });
  afterAll(() => system?.stop());

  it('POST /register names the data file, which is served as JSON with long cache headers and an ETag', async () => {
    const state = expectSuccess(await system.api.post('/register', { fetch_event_types: ['realm'] }, { auth: member, subdomain }));
    const url = new URL(state.server_emoji_data_url as string);
    expect(url.pathname).toBe(DATA);

    const res = await system.api.get<Record<string, unknown>>(url.pathname);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toMatch(/max-age=\d{5,}/);
    expect(Object.keys(res.body)).toEqual(['code_to_names']);
    expect(Object.keys(codeToNames).length).toBeGreaterThan(1800);
    expect(codeToNames['1f44d'][0]).toBe('+1');
    expect(codeToNames['1f44d']).toEqual(expect.arrayContaining(['thumbsup', 'thumbs_up']));
    expect(codeToNames['2764']).toContain('heart');

    const etag = res.headers.get('etag') ?? '';
    expect(etag).not.toBe('');
    const again = await system.api.get(url.pathname, {}, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
  });

  it('has exactly the names of the server’s own emoji table, each on the code the server gives it', () => {
    const catalogue = emojiCatalogue();
    const seen = new Set<string>();
    for (const [code, names] of Object.entries(codeToNames)) {
      expect(catalogue.isCode(code)).toBe(true);
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) {
        expect(catalogue.codeOf(name)).toBe(code);
        expect(seen.has(name)).toBe(false);
        seen.add(name);
      }
    }
    expect(seen.size).toBe(Object.keys(catalogue.namesByCode()).reduce((n, code) => n + catalogue.namesByCode()[code].length, 0));
  });

  it('every name sampled from the file is accepted as a reaction, with the file’s code', async () => {
    const channel = await factory.channel(realm, { name: 'emoji test', subscribers: [member] });
    const sent = expectSuccess(await system.api.post('/messages', { type: 'stream', to: channel.id, topic: 'reactions', content: 'react' }, { auth: member, subdomain }));
    const entries = Object.entries(codeToNames);
    const sample = entries.filter((_, i) => i % Math.ceil(entries.length / 15) === 0);
    for (const [code, names] of sample) {
      const name = names[names.length - 1];
      expectSuccess(await system.api.post(`/messages/${sent.id as number}/reactions`, { emoji_name: name }, { auth: member, subdomain }));
      const got = expectSuccess(await system.api.get(`/messages/${sent.id as number}`, {}, { auth: member, subdomain }));
      const reactions = (got.message as { reactions: { emoji_name: string; emoji_code: string }[] }).reactions;
      expect(reactions).toContainEqual(expect.objectContaining({ emoji_name: name, emoji_code: code }));
    }
  });

  it('serves an emoji image as PNG, cached for a year, under both of Zulip’s paths; an unknown code is 404', async () => {
    for (const path of ['/static/generated/emoji/images-google-64/1f44d.png', '/static/generated/emoji/images/emoji/unicode/2764.png']) {
      const res = await system.api.get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(Number(res.headers.get('content-length'))).toBeGreaterThan(500);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    expect((await system.api.get('/static/generated/emoji/images-google-64/ffff0.png')).status).toBe(404);
    expect((await system.api.get('/static/generated/emoji/images-google-64/..%2F..%2Fpackage.json')).status).toBe(404);
  });
});
