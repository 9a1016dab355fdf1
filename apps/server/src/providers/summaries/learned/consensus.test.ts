import { describe, expect, it } from 'vitest';
import { readSentences } from '../rules/nlp.js';
import { parseTranscript } from '../transcript-file.js';
import { lineFeatures, onlyGroups } from './features.js';

const consensus = (talk: string) => {
  const lines = parseTranscript(talk, '2026-04-02');
  return lineFeatures(lines, readSentences(lines)).map((f) => onlyGroups(f, ['k']).sort());
};

describe('consensus features (k)', () => {
  it('marks a proposal two other people agree to, and the summing-up after agreement', () => {
    const k = consensus(`Ines: We could hire the small hall for the quiz night this year.
Raj: Yeah, the small hall is fine by me.
Oona: Sure, sounds good.
Ines: Right, the small hall for the quiz night then, I'll book it.`);
    expect(k[0]).toContain('k:agreed-by-two');
    expect(k[0]).toContain('k:echoed');
    expect(k[3]).toContain('k:after-agreement');
    expect(k[1]).not.toContain('k:agreed-by-two');
  });

  it("marks a turn that restates someone else's proposal", () => {
    const k = consensus(`Raj: How about the small hall for the quiz night?
Oona: Fine.
Ines: Okay, we'll take the small hall for the quiz night.`);
    expect(k[2]).toContain('k:echoes-proposal');
    expect(k[2]).toContain('k:after-agreement');
    expect(k[1]).not.toContain('k:echoes-proposal');
  });

  it('does not count agreement after an objection, nor a question as firm', () => {
    const k = consensus(`Ines: We could hire the small hall for the quiz night this year.
Raj: No, it's far too cramped for that crowd.
Oona: Sure, sounds good.
Ines: Should we ask the school about their gym for the night instead?`);
    expect(k[0]).not.toContain('k:agreed-by-two');
    expect(k[0]).not.toContain('k:unopposed');
    expect(k[3]).not.toContain('k:after-agreement');
  });

  it('marks a firm statement nobody questions or opposes', () => {
    const k = consensus(`Dev: The van leaves the depot at six sharp on Saturday morning.
Kit: Got it.
Lee: I'll tell the drivers.
Dev: Anything else?`);
    expect(k[0]).toContain('k:unopposed');
    const opposed = consensus(`Dev: The van leaves the depot at six sharp on Saturday morning.
Kit: Got it.
Lee: But who has the keys?`);
    expect(opposed[0]).not.toContain('k:unopposed');
  });
});
