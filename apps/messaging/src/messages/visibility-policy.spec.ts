import { AutoPolicy, Visibility, visibilityAfterSend } from './visibility-policy';

const base = {
  current: Visibility.INHERIT,
  initiates: false,
  channelMuted: false,
  followPolicy: AutoPolicy.ON_INITIATION,
  unmutePolicy: AutoPolicy.ON_SEND,
};

describe('visibilityAfterSend', () => {
  it('follows a topic the sender starts, with the default policies', () => {
    expect(visibilityAfterSend({ ...base, initiates: true })).toBe(Visibility.FOLLOWED);
  });
  it('changes nothing when replying in an existing topic of an unmuted channel', () => {
    expect(visibilityAfterSend(base)).toBeNull();
  });
  it('unmutes a topic of a muted channel on send', () => {
    expect(visibilityAfterSend({ ...base, channelMuted: true })).toBe(Visibility.UNMUTED);
  });
  it('does not unmute again a topic already unmuted', () => {
    expect(visibilityAfterSend({ ...base, channelMuted: true, current: Visibility.UNMUTED })).toBeNull();
  });
  it('never touches a followed topic', () => {
    expect(visibilityAfterSend({ ...base, initiates: true, current: Visibility.FOLLOWED })).toBeNull();
  });
  it('prefers following over unmuting', () => {
    expect(visibilityAfterSend({ ...base, channelMuted: true, followPolicy: AutoPolicy.ON_SEND })).toBe(Visibility.FOLLOWED);
  });
  it('follows on participation and on send, even in an existing topic', () => {
    expect(visibilityAfterSend({ ...base, followPolicy: AutoPolicy.ON_PARTICIPATION })).toBe(Visibility.FOLLOWED);
    expect(visibilityAfterSend({ ...base, followPolicy: AutoPolicy.ON_SEND })).toBe(Visibility.FOLLOWED);
  });
  it('does nothing when both policies are "never"', () => {
    expect(
      visibilityAfterSend({ ...base, initiates: true, channelMuted: true, followPolicy: AutoPolicy.NEVER, unmutePolicy: AutoPolicy.NEVER }),
    ).toBeNull();
  });
  it('unmutes a muted topic of a muted channel', () => {
    expect(visibilityAfterSend({ ...base, channelMuted: true, current: Visibility.MUTED })).toBe(Visibility.UNMUTED);
  });
});
