import { builtinSettingDefaults } from '@teamchat/contracts';
import type { Person } from '../core/person';
import { channelTypingEvent, directParticipants, directTypingEvent, typingAudience, typingEvents, typingTopic } from './typing-event';

const person = (id: number, overrides: Partial<Person> = {}, settings: Partial<Person['settings']> = {}): Person => ({
  id,
  email: `user${id}@example.test`,
  role: 400,
  isActive: true,
  isBot: false,
  settings: { ...builtinSettingDefaults(), ...settings },
  ...overrides,
});

describe('typingAudience', () => {
  it('keeps active people who receive typing notifications, never the sender, once each and sorted', () => {
    const people = [
      person(9),
      person(1),
      person(5, { isActive: false }),
      person(3, {}, { receives_typing_notifications: false }),
      person(7, { isBot: true }),
      person(9),
    ];
    expect(typingAudience(people, 1)).toEqual([7, 9]);
    expect(typingAudience([person(1)], 1)).toEqual([]);
  });
});

describe('directParticipants', () => {
  it('keeps the given order, drops repeats and adds the sender last when absent', () => {
    expect(directParticipants([4, 2, 4], 1)).toEqual([4, 2, 1]);
    expect(directParticipants([4, 1, 2], 1)).toEqual([4, 1, 2]);
    expect(directParticipants([1], 1)).toEqual([1]);
  });
});

describe('typingTopic', () => {
  it.each([
    ['(no topic)', ''],
    ['general chat', ''],
    ['', ''],
    ['General chat', 'General chat'],
    ['plans', 'plans'],
  ])('reads %j as %j', (topic, shown) => {
    expect(typingTopic(topic)).toBe(shown);
  });
});

describe('typing events', () => {
  it('shows people by id and API email', () => {
    expect(directTypingEvent('start', person(1), [person(2), person(1)])).toEqual({
      type: 'typing',
      op: 'start',
      message_type: 'direct',
      sender: { user_id: 1, email: 'user1@example.test' },
      recipients: [
        { user_id: 2, email: 'user2@example.test' },
        { user_id: 1, email: 'user1@example.test' },
      ],
    });
    expect(channelTypingEvent('stop', person(1), 12, '')).toEqual({
      type: 'typing',
      op: 'stop',
      message_type: 'stream',
      sender: { user_id: 1, email: 'user1@example.test' },
      stream_id: 12,
      topic: '',
    });
  });

  it('publishes nothing for nobody', () => {
    const event = channelTypingEvent('start', person(1), 12, 'x');
    expect(typingEvents(3, [], event)).toEqual([]);
    expect(typingEvents(3, [2], event)).toEqual([{ def: expect.objectContaining({ subject: expect.stringMatching(/presence\.typing\.v1$/) }), payload: { realmId: 3, users: [2], event } }]);
  });
});
