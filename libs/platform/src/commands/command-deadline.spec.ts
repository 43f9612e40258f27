import { callerTime, callTime, outsideCommand, refuseIfTooLateToCommit, timeLeftMs, timeToAnswerMs, withDeadline } from './command-deadline';

describe('a command’s time', () => {
  const now = 1_000_000;

  it('gives a call from outside any command its own timeout, starting work up to a second before it', () => {
    expect(callTime(10_000, now)).toEqual({ deadline: now + 9000, expires: now + 10_000 });
    expect(callTime(1000, now)).toEqual({ deadline: now + 500, expires: now + 1000 });
    expect(timeLeftMs(now)).toBe(Infinity);
    expect(() => refuseIfTooLateToCommit(now)).not.toThrow();
  });

  it('bounds a call made while serving a command by that command’s caller, even past its deadline to start', () => {
    withDeadline(now + 2000, () => {
      expect(timeLeftMs(now)).toBe(2000);
      expect(timeToAnswerMs(now)).toBe(2750);
      expect(callTime(10_000, now)).toEqual({ expires: now + 2750, deadline: now + 2500 });
      // After the deadline to start (a follow-up to a commit): still callable while the answer can wait.
      expect(callTime(10_000, now + 2600)).toEqual({ expires: now + 2750, deadline: now + 2500 });
      expect(outsideCommand(() => callTime(10_000, now + 2600))).toEqual({ deadline: now + 11_600, expires: now + 12_600 });
    }, now + 3000);
  });

  it('bounds the calls made for a caller with a time of its own (an HTTP request) by that time, passed by hand', () => {
    // The gateway's request: 10 s from its arrival; its calls one after another share them.
    const request = callerTime(10_000, now);
    expect(request).toEqual({ deadline: now + 9000, expires: now + 10_000 });
    expect(callTime(10_000, now, request)).toEqual({ expires: now + 9750, deadline: now + 9000 });
    expect(callTime(10_000, now + 6000, request)).toEqual({ expires: now + 9750, deadline: now + 9500 });
    // Given by hand, it is what counts, even inside a command's scope.
    withDeadline(now + 2000, () => expect(callTime(10_000, now, request)).toEqual({ expires: now + 9750, deadline: now + 9000 }), now + 3000);
  });

  it('lets a change commit only while its answer can reach the caller', () => {
    withDeadline(now + 2000, () => {
      expect(() => refuseIfTooLateToCommit(now + 2700)).not.toThrow(); // past the deadline to start, not the caller's patience
      expect(() => refuseIfTooLateToCommit(now + 2750)).toThrow(expect.objectContaining({ code: 'SERVICE_UNAVAILABLE', status: 503 }));
    }, now + 3000);
  });
});
