import { describe, expect, it } from 'vitest';
import { containsProfanity } from './profanity';

describe('containsProfanity', () => {
  it('finds a listed word anywhere, in any case, around spaces', () => {
    expect(containsProfanity('  ShIt happens ')).toBe(true);
    expect(containsProfanity('mrFUCKface')).toBe(true);
  });
  it('lets ordinary names through', () => {
    for (const name of ['Cassandra', 'Dick Dickens', 'John Hancock', '']) {
      expect(containsProfanity(name)).toBe(false);
    }
  });
});
