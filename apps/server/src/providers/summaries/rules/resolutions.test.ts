import { describe, expect, it } from 'vitest';
import { NO_UNLESS, RULE_FROM, SETTLED_CLOSER, STATE_CHANGE, VOTE_RESULT } from './decision-phrases.js';

// The classifier's phrase features for decisions said without a decision word (tune13). Every
// sentence here is invented; each pattern is tried as written and lower-cased without punctuation.
const asr = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9' ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
function expectMatch(re: RegExp, yes: string[], no: string[]) {
  for (const s of yes) {
    expect(re.test(s.toLowerCase()), s).toBe(true);
    expect(re.test(asr(s)), asr(s)).toBe(true);
  }
  for (const s of no) expect(re.test(s.toLowerCase()), s).toBe(false);
}

describe('phrase features for unnamed decisions', () => {
  it('closes a discussion without restating it', () => {
    expectMatch(
      SETTLED_CLOSER,
      [
        "Fine, that's what we'll do.",
        'Okay, done.',
        'Done, then.',
        'Right. Sorted.',
        "That's what we're doing.",
      ],
      ["I'm done with the slides.", 'Is that what we do every year?', 'Done the budget yet?'],
    );
  });

  it('finds a standing rule from a time on', () => {
    expectMatch(
      RULE_FROM,
      [
        'From tonight, every shift change includes a till count.',
        'Good idea. From Monday the side door stays locked.',
        'Starting next week, nobody takes a van home.',
      ],
      ['From tonight I feel better about it.', 'From Monday to Friday is five days.'],
    );
  });

  it('finds a bare ruling with its condition', () => {
    expectMatch(
      NO_UNLESS,
      [
        'No ladders on the stage until the rigger has signed it off.',
        'Right. No refunds this month unless a manager approves them.',
        'Nobody opens the kiln without gloves.',
      ],
      [
        'No idea until Thursday.',
        'No worries, see you before lunch.',
        'We close at six until further notice.',
      ],
    );
  });

  it('finds a vote counted or an election called', () => {
    expectMatch(
      VOTE_RESULT,
      [
        'All in favour of the new fees? Thank you.',
        "That's clear, the fees go up.",
        'Okay, Marguerite is elected treasurer.',
        'Nine votes to four, the mural goes ahead.',
        'A clear majority for the Saturday slot.',
      ],
      ['I voted for her last year.', 'Who is in favour of pizza?', 'The election is in May.'],
    );
  });

  it('finds a plan said as a fact about a thing', () => {
    expectMatch(
      STATE_CHANGE,
      [
        'Right, the piano stays in the small hall.',
        'Then it goes into the next release.',
        'Okay, the quiz becomes a monthly thing.',
        'Agreed, the east gate is closed to visitors until Friday.',
        'So the newsletter moves to Thursdays.',
        'Then the bins go out on Tuesday nights.',
      ],
      [
        'We go to the depot first.',
        'I get in at nine.',
        'Where does the piano go?',
        'It seems to be fine.',
        'The printer starts to look tired.',
      ],
    );
  });
});
