import { z } from 'zod';

/**
 * One chat completion against an OpenAI-compatible API (OpenAI, vLLM, Ollama, LocalAI):
 * `POST ${baseUrl}/chat/completions` with a bearer key when one is configured. Shared by the
 * translation and summary adapters; plain fetch, so no vendor SDK is needed.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  messages: ChatMessage[];
  /** OpenAI's `response_format`, e.g. `{ type: 'json_schema', json_schema: {…} }`. */
  responseFormat?: unknown;
  timeoutMs: number;
}

/** The API could not be reached, refused the request, or answered something unusable. */
export class AiProviderError extends Error {}

const chatResponseSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullable().optional(),
          refusal: z.string().nullable().optional(),
        }),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .min(1),
});

export async function chatCompletion(request: ChatRequest): Promise<string> {
  const url = `${request.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const body: Record<string, unknown> = {
    model: request.model,
    messages: request.messages,
    // Translation and extraction want the most likely answer, not variety.
    temperature: 0,
  };
  if (request.responseFormat !== undefined) body.response_format = request.responseFormat;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (request.apiKey) headers.authorization = `Bearer ${request.apiKey}`;

  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(request.timeoutMs),
    });
  } catch (err) {
    throw new AiProviderError(
      `${url} could not be reached: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const raw = await res.text();
  if (!res.ok) throw new AiProviderError(`${url} answered ${res.status}: ${apiErrorMessage(raw)}`);

  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new AiProviderError(`${url} answered with something that is not JSON: ${raw.slice(0, 200)}`);
  }
  const parsed = chatResponseSchema.safeParse(json);
  if (!parsed.success) {
    throw new AiProviderError(`${url} answered without a chat completion choice: ${raw.slice(0, 200)}`);
  }
  const choice = parsed.data.choices[0]!;
  if (choice.message.refusal) throw new AiProviderError(`the model refused: ${choice.message.refusal}`);
  const content = choice.message.content;
  if (!content || content.trim() === '') throw new AiProviderError('the model answered with no content');
  if (choice.finish_reason === 'length') {
    throw new AiProviderError('the model ran out of output tokens before finishing its answer');
  }
  return content;
}

/** OpenAI's `{error: {message}}`, LibreTranslate's `{error: "…"}`, or the start of the body. */
export function apiErrorMessage(raw: string): string {
  try {
    const json = JSON.parse(raw) as { error?: unknown };
    if (typeof json.error === 'string') return json.error;
    if (json.error && typeof json.error === 'object' && 'message' in json.error)
      return String(json.error.message);
  } catch {
    // not JSON
  }
  return raw.slice(0, 200);
}
