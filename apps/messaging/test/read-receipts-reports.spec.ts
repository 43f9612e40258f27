import { UsersGroups } from '@teamchat/contracts';
import { Role } from '@teamchat/zulip';
import {
  Factory,
  TestSystem,
  expectCallersRefused,
  expectError,
  expectMatchesOpenApi,
  expectSuccess,
  type EventRecorder,
  type TestUser,
} from '@teamchat/testing';

const MESSAGE_SENT = 'event.messaging.message_sent.v1';

interface MessageSent {
  message: { id: number; sender_id: number; stream_id?: number; subject?: string };
  recipients: { id: number; flags: string[] }[];
}

/** Zulip's datetime_to_global_time for a stored send time. */
const globalTime = (date: Date) => `<time:${date.toISOString().replace(/\.\d{3}Z$/, '+00:00')}>`;

describe('read receipts and message reports', () => {
  let system: TestSystem;
  let factory: Factory;
  let events: EventRecorder;
  let subdomain: string;
  let realmId: number;
  let member: TestUser, admin: TestUser, guest: TestUser, sender: TestUser, reader: TestUser, shy: TestUser, muter: TestUser, mutedOne: TestUser;
  let readerBot: TestUser, leaver: TestUser, bystander: TestUser, secretKeeper: TestUser;
  let outsider: TestUser;
  let outsiderSubdomain: string;
  let general: { id: number }, secret: { id: number }, moderation: { id: number };
  let foreignMessage: number;

  const as = (user: TestUser, sub = subdomain) => ({ auth: user, subdomain: sub });
  const receipts = (user: TestUser, id: number | string, sub = subdomain) =>
    system.api.get<{ user_ids: number[] }>(`/messages/${id}/read_receipts`, {}, as(user, sub));
  const report = (user: TestUser, id: number | string, form: Record<string, string>, sub = subdomain) =>
    system.api.post(`/messages/${id}/report`, form, as(user, sub));
  const post = async (from: TestUser, channel: { id: number }, content: string, topic = 'plans', sub = subdomain) =>
    expectSuccess(await system.api.post('/messages', { type: 'stream', to: channel.id, topic, content }, as(from, sub))).id as number;
  const dm = async (from: TestUser, to: TestUser[], content: string) =>
    expectSuccess(await system.api.post('/messages', { type: 'direct', to: to.map((u) => u.id), content }, as(from))).id as number;
  const markRead = async (user: TestUser, id: number) =>
    expectSuccess(await system.api.post('/messages/flags', { messages: [id], op: 'add', flag: 'read' }, as(user)));
  const setRealm = (data: { enableReadReceipts?: boolean; moderationRequestChannelId?: number | null }) => system.db.realm.update({ where: { id: realmId }, data });
  const reports = () => system.db.message.findMany({ where: { streamId: moderation.id }, orderBy: { id: 'asc' } });
  const allMessages = () => system.db.message.count();
  const mention = (user: TestUser) => `@_**${user.fullName}|${user.id}**`;
  const sentAt = async (id: number) => (await system.db.message.findUniqueOrThrow({ where: { id } })).dateSent;

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'receipts' });
    ({ member, admin, guest } = org);
    subdomain = org.realm.subdomain;
    realmId = org.realm.id;
    sender = await factory.user(org.realm, { fullName: 'Othello Sender' });
    reader = await factory.user(org.realm, { fullName: 'Reader' });
    shy = await factory.user(org.realm, { fullName: 'Shy Reader', settings: { send_read_receipts: false } });
    muter = await factory.user(org.realm, { fullName: 'Muter' });
    mutedOne = await factory.user(org.realm, { fullName: 'Muted One' });
    readerBot = await factory.user(org.realm, { fullName: 'Reading Bot', isBot: true, botOwnerId: member.id });
    leaver = await factory.user(org.realm, { fullName: 'Leaver' });
    bystander = await factory.user(org.realm, { fullName: 'Bystander' });
    secretKeeper = await factory.user(org.realm, { fullName: 'Secret Keeper' });
    general = await factory.channel(org.realm, {
      name: 'general',
      subscribers: [member, admin, sender, reader, shy, muter, mutedOne, readerBot, leaver],
    });
    secret = await factory.channel(org.realm, { name: 'secret', inviteOnly: true, subscribers: [sender, secretKeeper] });
    moderation = await factory.channel(org.realm, { name: 'moderation requests', inviteOnly: true, subscribers: [admin] });
    const elsewhere = await factory.organization({ subdomain: 'elsewhere' });
    outsiderSubdomain = elsewhere.subdomain;
    outsider = await factory.user(elsewhere, { role: Role.OWNER });
    const foreignChannel = await factory.channel(elsewhere, { name: 'general', subscribers: [outsider] });
    foreignMessage = await post(outsider, foreignChannel, 'elsewhere', 'plans', outsiderSubdomain);
    // member mutes mutedOne; muter mutes member.
    expectSuccess(await system.api.post(`/users/me/muted_users/${mutedOne.id}`, {}, as(member)));
    expectSuccess(await system.api.post(`/users/me/muted_users/${member.id}`, {}, as(muter)));
    events = await system.recordEvents();
  });
  afterAll(() => system.stop());
  beforeEach(async () => {
    events.clear();
    await setRealm({ enableReadReceipts: true, moderationRequestChannelId: moderation.id });
  });

  describe('GET /messages/{message_id}/read_receipts', () => {
    let message: number;

    beforeAll(async () => {
      message = await post(sender, general, 'who reads this?');
      for (const user of [member, reader, shy, muter, mutedOne, readerBot, leaver]) await markRead(user, message);
      await system.db.user.update({ where: { id: leaver.id }, data: { isActive: false } });
    });

    it('answers who read it and shares it: never the sender, nor anyone muted either way, nor the deactivated; bots and the caller included', async () => {
      const body = expectSuccess(await receipts(member, message));
      expectMatchesOpenApi('get', '/messages/{message_id}/read_receipts', body);
      expect(body.user_ids).toEqual([member.id, reader.id, readerBot.id].sort((a, b) => a - b));

      // The sender's own row is read (sent from the API it is not, so mark it): still left out.
      await markRead(sender, message);
      expect(expectSuccess(await receipts(admin, message)).user_ids).toEqual([member.id, reader.id, muter.id, mutedOne.id, readerBot.id].sort((a, b) => a - b));
      // Whoever muted the caller, and whom the caller muted, are left out for that caller only.
      expect(expectSuccess(await receipts(mutedOne, message)).user_ids).toEqual([reader.id, muter.id, mutedOne.id, readerBot.id].sort((a, b) => a - b));
    });

    it('follows marking unread and the send_read_receipts setting, the organization default included', async () => {
      expectSuccess(await system.api.post('/messages/flags', { messages: [message], op: 'remove', flag: 'read' }, as(reader)));
      expect(expectSuccess(await receipts(admin, message)).user_ids).not.toContain(reader.id);
      await markRead(reader, message);
      await factory.userSettings(shy, { send_read_receipts: true });
      expect(expectSuccess(await receipts(admin, message)).user_ids).toContain(shy.id);
      await factory.userSettings(shy, { send_read_receipts: false });
      await system.db.realm.update({ where: { id: realmId }, data: { userSettingsDefaults: { send_read_receipts: false } } });
      try {
        // reader stored no setting of their own: the organization's default now hides them.
        expect(expectSuccess(await receipts(admin, message)).user_ids).not.toContain(reader.id);
      } finally {
        await system.db.realm.update({ where: { id: realmId }, data: { userSettingsDefaults: {} } });
      }
    });

    it('answers anyone who may read the message, a non-subscriber of a public channel included', async () => {
      expect(expectSuccess(await receipts(bystander, message)).user_ids).toContain(reader.id);
      const direct = await dm(sender, [member], 'just us');
      await markRead(member, direct);
      expect(expectSuccess(await receipts(member, direct)).user_ids).toEqual([member.id]);
    });

    it.each([
      ['an unknown message', () => receipts(member, 999_999_999)],
      ['an id past any row', () => receipts(member, 2 ** 40)],
      ['another organization’s message', () => receipts(member, foreignMessage)],
      ['a private channel’s message to a non-subscriber', async () => receipts(member, await post(sender, secret, 'hush'))],
      ['a public channel’s message to a guest who is not subscribed', () => receipts(guest, message)],
      ['a direct message to someone else', async () => receipts(reader, await dm(sender, [member], 'not for the reader'))],
    ])('refuses %s as Zulip’s invalid message', async (_what, send) => {
      expectError(await send(), 400, 'BAD_REQUEST', 'Invalid message(s)');
    });

    it('is refused when the organization turned read receipts off, after the access check', async () => {
      await setRealm({ enableReadReceipts: false });
      expectError(await receipts(member, message), 400, 'BAD_REQUEST', 'Read receipts are disabled in this organization.');
      expectError(await receipts(member, 999_999_999), 400, 'BAD_REQUEST', 'Invalid message(s)');
    });

    it('refuses callers without valid credentials, of another organization, or deactivated', async () => {
      const deactivated = await factory.user({ id: realmId }, { isActive: false });
      await expectCallersRefused((options) => system.api.get(`/messages/${message}/read_receipts`, {}, options), { subdomain, member, outsider, deactivated });
    });
  });

  describe('POST /messages/{message_id}/report', () => {
    it('posts Zulip’s report of a channel message as the notification bot in the moderation request channel', async () => {
      const reported = await post(sender, general, 'I squeeze toothpaste from the middle', 'civilized discussions');
      events.clear();
      const body = expectSuccess(await report(member, reported, { report_type: 'harassment', description: 'this is crime against food' }));
      expectMatchesOpenApi('post', '/messages/{message_id}/report', body);
      expect(body).toEqual({ result: 'success', msg: '' });

      const [posted] = await reports();
      const bot = await system.db.user.findUniqueOrThrow({ where: { id: posted.senderId } });
      expect(bot).toMatchObject({ isBot: true, fullName: UsersGroups.NOTIFICATION_BOT_NAME, realmId });
      expect(posted.topic).toBe('Othello Sender moderation');
      expect(posted.content).toBe(
        [
          `${mention(member)} reported a message sent by ${mention(sender)} at ${globalTime(await sentAt(reported))}.`,
          '```quote',
          '**Harassment**. this is crime against food',
          '```',
          '',
          `\`\`\` spoiler Original message at #**general>civilized discussions@${reported}**`,
          'I squeeze toothpaste from the middle',
          '```',
        ].join('\n'),
      );
      expect(posted.renderedContent).toContain('<blockquote>');

      // The moderators' channel hears of it; the reporter, not subscribed to it, does not.
      const sent = await events.waitFor<MessageSent>(MESSAGE_SENT);
      const announced = sent.find((event) => event.message.id === posted.id)!;
      expect(announced.message).toMatchObject({ sender_id: bot.id, stream_id: moderation.id });
      expect(announced.recipients.map((r) => r.id)).toContain(admin.id);
      expect(announced.recipients.map((r) => r.id)).not.toContain(member.id);
    });

    it('words direct messages as Zulip does, one’s own included, with a link to the conversation', async () => {
      const before = (await reports()).length;
      const direct = await dm(sender, [member], 'I dip fries in ice cream');
      expectSuccess(await report(member, direct, { report_type: 'spam' }));
      const own = await dm(member, [sender], 'my own words');
      expectSuccess(await report(member, own, { report_type: 'norms', description: 'just testing' }));
      const group = await dm(sender, [member, reader], 'I eat cereal with water');
      expectSuccess(await report(member, group, { report_type: 'inappropriate', description: 'call the police' }));

      const [first, second, third] = (await reports()).slice(before);
      const realmUrl = `http://receipts.${new URL(system.env.EXTERNAL_URL).host}`;
      const pair = [member.id, sender.id].sort((a, b) => a - b).join(',');
      expect(first.content.split('\n')).toEqual([
        `${mention(member)} reported a direct message sent by ${mention(sender)} at ${globalTime(await sentAt(direct))}.`,
        '```quote',
        '**Spam**. ',
        '```',
        '',
        `\`\`\` spoiler [Original message](${realmUrl}/#narrow/dm/${pair}/near/${direct})`,
        'I dip fries in ice cream',
        '```',
      ]);
      expect(first.topic).toBe('Othello Sender moderation');
      expect(second.content.split('\n')[0]).toBe(
        `${mention(member)} reported a direct message sent by ${mention(member)} to ${mention(sender)} at ${globalTime(await sentAt(own))}.`,
      );
      expect(second.topic).toBe(`${member.fullName} moderation`);
      const others = [mention(member), mention(reader)].sort();
      expect(third.content.split('\n')[0]).toBe(
        `${mention(member)} reported a direct message sent by ${mention(sender)} to ${others[0]} and ${others[1]} at ${globalTime(await sentAt(group))}.`,
      );
      const trio = [member.id, sender.id, reader.id].sort((a, b) => a - b).join(',');
      expect(third.content).toContain(`[Original message](${realmUrl}/#narrow/dm/${trio}-group/near/${group})`);
    });

    it('takes any message the reporter may read, a public channel’s without being subscribed', async () => {
      const before = (await reports()).length;
      const reported = await post(sender, general, 'visible to all members');
      expectSuccess(await report(bystander, reported, { report_type: 'other', description: 'odd' }));
      expect((await reports()).length).toBe(before + 1);
    });

    it.each([
      ['`other` without a description', () => ({ report_type: 'other' }), 'BAD_REQUEST', 'An explanation is required.'],
      ['an unknown report type', () => ({ report_type: 'rude' }), 'BAD_REQUEST', 'Invalid report_type'],
      ['a description over 1000 characters', () => ({ report_type: 'spam', description: 'x'.repeat(1001) }), 'BAD_REQUEST', 'description is too long (limit: 1000 characters)'],
    ])('refuses %s and posts nothing', async (_what, form, code, msg) => {
      const reported = await post(sender, general, 'to be reported');
      const before = await allMessages();
      expectError(await report(member, reported, form()), 400, code, msg);
      expect(await allMessages()).toBe(before);
    });

    it('needs a report type', async () => {
      const reported = await post(sender, general, 'to be reported');
      const before = await allMessages();
      expectError(await report(member, reported, {}), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'report_type' argument", { var_name: 'report_type' });
      expect(await allMessages()).toBe(before);
    });

    it.each([
      ['an unknown message', () => 999_999_999],
      ['another organization’s message', () => foreignMessage],
      ['a private channel’s message to a non-subscriber', () => post(sender, secret, 'hush')],
      ['a direct message to someone else', () => dm(sender, [reader], 'not for the member')],
    ])('refuses %s as Zulip’s invalid message and posts nothing', async (_what, id) => {
      const messageId = await id();
      const before = await allMessages();
      expectError(await report(member, messageId, { report_type: 'spam' }), 400, 'BAD_REQUEST', 'Invalid message(s)');
      expect(await allMessages()).toBe(before);
    });

    it('is refused when the organization has no moderation request channel, after checking the description', async () => {
      const reported = await post(sender, general, 'to be reported');
      await setRealm({ moderationRequestChannelId: null });
      const before = await allMessages();
      expectError(await report(member, reported, { report_type: 'spam' }), 400, 'BAD_REQUEST', 'Message reporting is not enabled in this organization.');
      expectError(await report(member, 999_999_999, { report_type: 'spam' }), 400, 'BAD_REQUEST', 'Message reporting is not enabled in this organization.');
      expectError(await report(member, reported, { report_type: 'other' }), 400, 'BAD_REQUEST', 'An explanation is required.');
      expect(await allMessages()).toBe(before);
    });

    it('refuses callers without valid credentials, of another organization, or deactivated', async () => {
      const reported = await post(sender, general, 'to be reported');
      const deactivated = await factory.user({ id: realmId }, { isActive: false });
      const before = await allMessages();
      await expectCallersRefused((options) => system.api.post(`/messages/${reported}/report`, { report_type: 'spam' }, options), {
        subdomain,
        member,
        outsider,
        deactivated,
      });
      expect(await allMessages()).toBe(before);
    });
  });
});
