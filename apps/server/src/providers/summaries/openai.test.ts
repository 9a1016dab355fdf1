import { afterEach, describe, expect, it } from 'vitest';
import { type FakeApi, FakeApiError, requireBearer, startFakeApi } from '../../../test/fake-openai.js';
import { AiProviderError } from '../translation/openai-chat.js';
import { OpenAiSummarizer } from './openai.js';
import type { SummaryInput } from './types.js';

let api: FakeApi | null = null;
afterEach(async () => {
  await api?.close();
  api = null;
});

const input: SummaryInput = {
  lines: [
    {
      id: 'line-a',
      speaker: 'Maya',
      text: 'Luis, could you send the report by Friday?',
      at: '2026-03-11T09:00:00Z',
      kind: 'speech',
    },
    { id: 'line-b', speaker: 'Luis', text: 'Sure.', at: '2026-03-11T09:00:05Z', kind: 'speech' },
    {
      id: 'chat-c',
      speaker: 'Maya',
      text: "Let's keep the launch on Monday.",
      at: '2026-03-11T09:01:00Z',
      kind: 'chat',
    },
  ],
  participants: ['Maya', 'Luis'],
  meetingDate: '2026-03-11',
};

/** What a model answers with structured output: the JSON as the message content. */
function answer(content: unknown) {
  return {
    json: {
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: typeof content === 'string' ? content : JSON.stringify(content),
          },
          finish_reason: 'stop',
        },
      ],
    },
  };
}

const recorded = {
  summary: 'Maya and Luis planned the report and the launch.',
  keyPoints: [{ text: 'The report is due Friday.', sources: ['1'] }],
  actionItems: [{ text: 'Send the report', owner: 'Luis', due: '2026-03-13', sources: ['1', '2', '9'] }],
  decisions: [{ text: 'Keep the launch on Monday', sources: ['3'] }],
};

function summarizer(url: string, apiKey = 'sk-test') {
  return new OpenAiSummarizer({ baseUrl: `${url}/v1`, apiKey, model: 'gpt-4o-mini' });
}

describe('OpenAI-compatible summaries', () => {
  it('asks for strict JSON-schema output over numbered lines and maps the line numbers back to ids', async () => {
    api = await startFakeApi({
      'POST /v1/chat/completions': (req) => {
        requireBearer(req, 'sk-test');
        const body = req.json as { response_format?: { type?: string; json_schema?: { strict?: boolean } } };
        if (
          body.response_format?.type !== 'json_schema' ||
          body.response_format.json_schema?.strict !== true
        ) {
          throw new FakeApiError(400, 'expected a strict json_schema response_format');
        }
        return answer(recorded);
      },
    });
    const summary = await summarizer(api.url).summarize(input);
    expect(summary).toEqual({
      summary: recorded.summary,
      keyPoints: [{ text: 'The report is due Friday.', sources: ['line-a'] }],
      // Line 9 does not exist: dropped rather than passed on.
      actionItems: [
        { text: 'Send the report', owner: 'Luis', due: '2026-03-13', sources: ['line-a', 'line-b'] },
      ],
      decisions: [{ text: 'Keep the launch on Monday', sources: ['chat-c'] }],
    });

    const body = api.requests[0]!.json as {
      model: string;
      messages: Array<{ role: string; content: string }>;
      response_format: {
        json_schema: { name: string; schema: { required: string[]; properties: Record<string, unknown> } };
      };
    };
    expect(body.model).toBe('gpt-4o-mini');
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(body.messages[1]!.content).toContain('Meeting date: 2026-03-11');
    expect(body.messages[1]!.content).toContain('[1] Maya: Luis, could you send the report by Friday?');
    expect(body.messages[1]!.content).toContain("[3] Maya (chat): Let's keep the launch on Monday.");
    const schema = body.response_format.json_schema.schema;
    expect(schema.required).toEqual(['summary', 'keyPoints', 'actionItems', 'decisions']);
    expect(JSON.stringify(schema.properties.actionItems)).toContain('"due"');
  });

  it('gives a clear error for an answer that does not match the summary schema', async () => {
    api = await startFakeApi({
      'POST /v1/chat/completions': () =>
        answer({ summary: 'ok', keyPoints: [], actionItems: [{ text: 'x' }], decisions: [] }),
    });
    const err = await summarizer(api.url)
      .summarize(input)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AiProviderError);
    expect((err as Error).message).toMatch(/does not match the summary schema: actionItems\.0\.sources/);
  });

  it('gives a clear error for an answer that is not JSON, and for a refused key', async () => {
    api = await startFakeApi({
      'POST /v1/chat/completions': (req) => {
        requireBearer(req, 'sk-test');
        return answer('Here is your summary: the meeting went well.');
      },
    });
    await expect(summarizer(api.url).summarize(input)).rejects.toThrow(
      /summary is not JSON: Here is your summary/,
    );
    await expect(summarizer(api.url, 'wrong').summarize(input)).rejects.toThrow(/answered 401/);
  });
});
