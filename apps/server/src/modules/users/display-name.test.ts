import { describe, expect, it } from 'vitest';
import { displayName } from './display-name.js';

describe('displayName', () => {
  it('joins the first and last name', () => {
    expect(displayName({ firstName: 'Ada', lastName: 'Lovelace' })).toBe('Ada Lovelace');
  });

  it('is the one name given when the other is missing', () => {
    expect(displayName({ firstName: 'Ada', lastName: null })).toBe('Ada');
    expect(displayName({ firstName: null, lastName: 'Lovelace' })).toBe('Lovelace');
    expect(displayName({ firstName: '', lastName: 'Lovelace' })).toBe('Lovelace');
  });

  it('is null for a user who gave no name, never an empty or blank string', () => {
    expect(displayName({ firstName: null, lastName: null })).toBeNull();
    expect(displayName({ firstName: '', lastName: '' })).toBeNull();
    expect(displayName({ firstName: ' ', lastName: null })).toBeNull();
  });
});
