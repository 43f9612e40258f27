import { legacyEventPresence, legacyPresence, modernPresence, singleUserPresence } from './presence-format';

const entry = (lastActive: number, lastConnected: number) => ({ userId: 7, lastActive, lastConnected, updateId: 3 });
const NOW = 1_800_000_000;

describe('modernPresence', () => {
  it('gives both times, the joining time as last active for a user never active', () => {
    expect(modernPresence(entry(NOW - 10, NOW), 1000)).toEqual({ active_timestamp: NOW - 10, idle_timestamp: NOW });
    expect(modernPresence(entry(0, NOW), 1000)).toEqual({ active_timestamp: 1000, idle_timestamp: NOW });
  });
});

describe('legacyPresence', () => {
  it('says active at the last activity within two minutes', () => {
    expect(legacyPresence(entry(NOW - 120, NOW), 0, NOW)).toEqual({
      aggregated: { client: 'website', status: 'active', timestamp: NOW - 120 },
      website: { client: 'website', status: 'active', timestamp: NOW - 120, pushable: false },
    });
  });

  it('says idle at the last connection after that, or when never active', () => {
    expect(legacyPresence(entry(NOW - 121, NOW - 5), 0, NOW).aggregated).toEqual({ client: 'website', status: 'idle', timestamp: NOW - 5 });
    expect(legacyPresence(entry(0, NOW - 5), 1000, NOW).website).toEqual({ client: 'website', status: 'idle', timestamp: NOW - 5, pushable: false });
  });
});

describe('legacyEventPresence', () => {
  it('says active when last active within 70 s of the last connection, else idle at the connection', () => {
    expect(legacyEventPresence(entry(NOW - 70, NOW), 0)).toEqual({ website: { client: 'website', status: 'active', timestamp: NOW - 70, pushable: false } });
    expect(legacyEventPresence(entry(NOW - 71, NOW), 0)).toEqual({ website: { client: 'website', status: 'idle', timestamp: NOW, pushable: false } });
  });
});

describe('singleUserPresence', () => {
  it('drops client and pushable, and says offline in aggregated past 140 s', () => {
    expect(singleUserPresence(entry(NOW - 140, NOW - 140), 0, NOW)).toEqual({
      website: { status: 'idle', timestamp: NOW - 140 },
      aggregated: { status: 'idle', timestamp: NOW - 140 },
    });
    expect(singleUserPresence(entry(NOW - 141, NOW - 141), 0, NOW).aggregated).toEqual({ status: 'offline', timestamp: NOW - 141 });
    expect(singleUserPresence(entry(NOW, NOW), 0, NOW).aggregated).toEqual({ status: 'active', timestamp: NOW });
  });
});
