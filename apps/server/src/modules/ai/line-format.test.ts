import { describe, expect, it } from 'vitest';
import { formatLine, type HeardWord } from './line-format.js';

/** Words with times: each 300 ms long, a `|` in the text is a 400 ms pause, else 20 ms. */
function heard(text: string): { text: string; words: HeardWord[] } {
  const words: HeardWord[] = [];
  let at = 0;
  for (const token of text.split(' ')) {
    if (token === '|') {
      at += 380;
      continue;
    }
    words.push({ word: token, startMs: at, endMs: at + 300 });
    at += 320;
  }
  return { text: words.map((w) => w.word).join(' '), words };
}

describe('caption lines as people write them', () => {
  it('ends sentences where the speaker paused, each with a capital and a full stop', () => {
    const line = formatLine({ ...heard('the budget is ready | please review the design before friday') });
    expect(line).toEqual({
      text: 'The budget is ready. Please review the design before Friday.',
      continues: false,
    });
  });

  it('a short pause is not a sentence end, nor one after a single word', () => {
    expect(formatLine(heard('we need two more people')).text).toBe('We need two more people.');
    expect(formatLine(heard('so | we ship on monday')).text).toBe('So we ship on Monday.');
  });

  it('without word timings the line is one sentence', () => {
    expect(formatLine({ text: 'the budget is ready please review it' }).text).toBe(
      'The budget is ready please review it.',
    );
  });

  it('timings that do not match the text are not used', () => {
    const { words } = heard('the budget | is ready');
    expect(formatLine({ text: 'the budget was ready', words }).text).toBe('The budget was ready.');
  });

  it('a sentence that opens like a question gets a question mark', () => {
    expect(formatLine(heard('can you send it | i will check')).text).toBe('Can you send it? I will check.');
    expect(formatLine(heard("what's next")).text).toBe("What's next?");
    expect(formatLine(heard('where is the file')).text).toBe('Where is the file?');
  });

  it('spells the names of the room as its roster does, possessives too, and "I"', () => {
    const line = formatLine({
      ...heard("luis and ana maría said i'll take hana's slides"),
      names: ['Hana', 'Luis Ortega', 'Ana María'],
    });
    expect(line.text).toBe("Luis and Ana María said I'll take Hana's slides.");
  });

  it('a name that is also an everyday word is left as a word', () => {
    const line = formatLine({ ...heard('we will mark it done'), names: ['Will Smith', 'Mark'] });
    expect(line.text).toBe('We will mark it done.');
    // …while the other part of that name is still spelled as the roster spells it.
    expect(formatLine({ ...heard('ask smith'), names: ['Will Smith'] }).text).toBe('Ask Smith.');
  });

  it('a line cut at the length limit ends with "…", and the next one continues its sentence', () => {
    const first = formatLine({ ...heard('we need two more people on the'), endedBy: 'length' });
    expect(first).toEqual({ text: 'We need two more people on the…', continues: true });
    const next = formatLine({ ...heard('support team | it starts monday'), continues: first.continues });
    expect(next).toEqual({ text: 'support team. It starts Monday.', continues: false });
  });

  it('nothing heard is an empty line', () => {
    expect(formatLine({ text: '  ' })).toEqual({ text: '', continues: false });
  });
});
