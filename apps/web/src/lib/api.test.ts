import { afterEach, describe, expect, it, vi } from 'vitest';
import { uploadMeetingFile } from '@/features/room/api';
import { ApiError, apiRequest } from './api';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('apiRequest', () => {
  it('sends FormData as it is, with extra headers and no JSON content type', async () => {
    const fetchMock = vi.fn(
      (_url: string, _init: RequestInit) =>
        new Response(JSON.stringify({ id: 'f1' }), { headers: { 'content-type': 'application/json' } }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const file = new File(['hello'], 'notes.txt', { type: 'text/plain' });
    await expect(uploadMeetingFile('123-456-789', 'tok', file)).resolves.toEqual({ id: 'f1' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/meetings/123-456-789/files');
    expect(init.body).toBeInstanceOf(FormData);
    expect((init.body as FormData).get('file')).toBeInstanceOf(File);
    expect(init.headers).toEqual({ Accept: 'application/json', Authorization: 'Bearer tok' });
    expect(init.credentials).toBe('include');
  });

  it('turns a refused upload into an ApiError carrying the server message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Response(JSON.stringify({ message: 'File too large' }), { status: 413 })),
    );
    const err = await uploadMeetingFile('1', 't', new File(['x'], 'x.bin')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(413);
    expect((err as ApiError).serverMessage).toBe('File too large');
  });

  it('still sends plain objects as JSON', async () => {
    const fetchMock = vi.fn((_url: string, _init: RequestInit) => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    await apiRequest('POST', '/api/x', { a: 1 });
    const init = fetchMock.mock.calls[0]![1];
    expect(init.body).toBe('{"a":1}');
    expect(init.headers).toMatchObject({ 'Content-Type': 'application/json' });
  });
});
