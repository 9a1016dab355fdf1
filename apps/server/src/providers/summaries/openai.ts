import { meetingSummarySchema } from '@parley/protocol';
import { AiProviderError, chatCompletion } from '../translation/openai-chat.js';
import type { MeetingSummary, Summarizer, SummaryInput } from './types.js';

export interface OpenAiSummarizerOptions {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs?: number;
}

const point = {
  type: 'object',
  additionalProperties: false,
  required: ['text', 'sources'],
  properties: {
    text: { type: 'string' },
    sources: { type: 'array', items: { type: 'string' }, description: 'Numbers of the lines it came from.' },
  },
} as const;

/** MeetingSummary as a strict JSON schema (every property required; null where the wire allows). */
export const SUMMARY_JSON_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['summary', 'keyPoints', 'actionItems', 'decisions'],
  properties: {
    summary: { type: 'string' },
    keyPoints: { type: 'array', items: point },
    actionItems: {
      type: 'array',
      items: {
        ...point,
        required: ['text', 'sources', 'owner', 'due'],
        properties: {
          ...point.properties,
          owner: {
            type: ['string', 'null'],
            description: 'The person who takes it, as named in the meeting.',
          },
          due: { type: ['string', 'null'], description: 'YYYY-MM-DD when a due date was stated.' },
        },
      },
    },
    decisions: { type: 'array', items: point },
  },
} as const;

const INSTRUCTIONS = [
  'You summarise a meeting transcript. Each line is "[number] Speaker: text".',
  'Return JSON with: summary (a short overview paragraph); keyPoints (the main points);',
  'actionItems (work a person takes on or is asked to do after the meeting, including "someone should…" tasks',
  'that someone then takes; not things done during the meeting), each with owner (the person, as named, or null)',
  'and due (YYYY-MM-DD computed from the meeting date when a day or date was stated, else null);',
  'decisions (choices the group made in this meeting; not proposals nobody accepted, not past decisions).',
  'Every item lists in sources the numbers (as strings) of the lines it came from.',
  'Empty lists when there are none. Write in the language of the transcript.',
].join(' ');

/**
 * Summaries by a chat model of an OpenAI-compatible API with structured output
 * (`response_format: json_schema`, strict). Lines are numbered in the prompt so the model can cite
 * them; the numbers are mapped back to the lines' ids. The answer is checked against the wire
 * schema: a model that answers something else gets a clear error, not a half summary.
 */
export class OpenAiSummarizer implements Summarizer {
  readonly name = 'openai-compatible';

  constructor(private readonly options: OpenAiSummarizerOptions) {}

  async summarize(input: SummaryInput): Promise<MeetingSummary> {
    const numbered = input.lines.map(
      (l, i) => `[${i + 1}] ${l.speaker}${l.kind === 'chat' ? ' (chat)' : ''}: ${l.text}`,
    );
    const content = await chatCompletion({
      baseUrl: this.options.baseUrl,
      apiKey: this.options.apiKey,
      model: this.options.model,
      timeoutMs: this.options.timeoutMs ?? 120_000,
      responseFormat: {
        type: 'json_schema',
        json_schema: { name: 'meeting_summary', strict: true, schema: SUMMARY_JSON_SCHEMA },
      },
      messages: [
        { role: 'system', content: INSTRUCTIONS },
        {
          role: 'user',
          content: [
            `Meeting date: ${input.meetingDate.slice(0, 10)}`,
            `Participants: ${input.participants.join(', ') || '(not given)'}`,
            '',
            ...numbered,
          ].join('\n'),
        },
      ],
    });

    let json: unknown;
    try {
      json = JSON.parse(content);
    } catch {
      throw new AiProviderError(`the model's summary is not JSON: ${content.slice(0, 200)}`);
    }
    const parsed = meetingSummarySchema.safeParse(json);
    if (!parsed.success) {
      const problems = parsed.error.issues
        .slice(0, 5)
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
      throw new AiProviderError(
        `the model's summary does not match the summary schema: ${problems.join('; ')}`,
      );
    }
    return withLineIds(parsed.data, input);
  }
}

/** Line numbers → line ids; numbers that name no line are dropped, a due that is no date is null. */
function withLineIds(summary: MeetingSummary, input: SummaryInput): MeetingSummary {
  const ids = (sources: string[]) => [
    ...new Set(sources.flatMap((n) => input.lines[Number(n.replace(/\D/g, '')) - 1]?.id ?? [])),
  ];
  return {
    summary: summary.summary,
    keyPoints: summary.keyPoints.map((p) => ({ ...p, sources: ids(p.sources) })),
    actionItems: summary.actionItems.map((a) => ({
      ...a,
      sources: ids(a.sources),
      due: a.due && /^\d{4}-\d{2}-\d{2}$/.test(a.due) ? a.due : null,
    })),
    decisions: summary.decisions.map((d) => ({ ...d, sources: ids(d.sources) })),
  };
}
