import type { Narrow, Term } from '../narrow/narrow';

/** Zulip's search operators the box understands (the server checks their operands). */
const OPERATORS = new Set(['channel', 'stream', 'channels', 'topic', 'sender', 'from', 'dm', 'pm-with', 'dm-including', 'is', 'has', 'near', 'id', 'search', 'with']);

/**
 * The narrow a search box text names, as Zulip's search parses it: `operator:operand` terms
 * (`-` negates one, quotes keep spaces), every other word full text. `channel:` takes a channel's
 * name (or id); a channel, or a channel and topic, alone is that channel's narrow.
 */
export function parseSearch(text: string, channelIdOf: (name: string) => number | undefined): Narrow {
  const terms: Term[] = [];
  const words: string[] = [];
  for (const match of text.matchAll(/(-?)([a-z-]+):(?:"([^"]*)"|(\S+))|"([^"]*)"|(\S+)/g)) {
    const [, minus, operator, quoted, bare, phrase, word] = match;
    if (operator !== undefined && OPERATORS.has(operator)) {
      let name = operator === 'from' ? 'sender' : operator === 'stream' ? 'channel' : operator;
      let operand = quoted ?? bare ?? '';
      if (name === 'channel') {
        const id = /^\d+$/.test(operand) ? Number(operand) : channelIdOf(operand);
        if (id !== undefined && !/^\d+$/.test(operand)) operand = `${id}-${operand.replace(/ /g, '-')}`;
      }
      if (name === 'pm-with') name = 'dm';
      terms.push({ operator: name, operand, ...(minus ? { negated: true } : {}) });
    } else {
      words.push(phrase ?? word ?? match[0]);
    }
  }
  if (words.length > 0) terms.push({ operator: 'search', operand: words.join(' ') });
  const channel = terms.find((term) => term.operator === 'channel' && !term.negated);
  const topic = terms.find((term) => term.operator === 'topic' && !term.negated);
  const id = channel ? Number(/^\d+/.exec(channel.operand)?.[0]) : NaN;
  if (channel && Number.isSafeInteger(id) && terms.length === (topic ? 2 : 1)) {
    return { kind: 'channel', channelId: id, channelName: channel.operand.replace(/^\d+-?/, '').replace(/-/g, ' '), ...(topic ? { topic: topic.operand } : {}) };
  }
  return terms.length === 0 ? { kind: 'all' } : { kind: 'search', terms };
}
