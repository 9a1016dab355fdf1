import WebSocket from 'ws';

/**
 * The V8 inspector of a server process started with `NODE_OPTIONS=--inspect=127.0.0.1:<port>`:
 * garbage collection and heap figures are taken inside the server, not in the benchmark's own
 * process (whose `global.gc` says nothing about the server's memory).
 */
export interface ServerInspector {
  /** A full garbage collection in the server, then its used JS heap in bytes. */
  heapUsedAfterGc(): Promise<number>;
  close(): void;
}

export async function connectInspector(port: number): Promise<ServerInspector> {
  const deadline = Date.now() + 10_000;
  let target: string | undefined;
  while (!target) {
    try {
      const list = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
        webSocketDebuggerUrl?: string;
      }[];
      target = list[0]?.webSocketDebuggerUrl;
    } catch {
      // not listening yet
    }
    if (!target) {
      if (Date.now() > deadline) throw new Error(`no inspector on 127.0.0.1:${port}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const ws = new WebSocket(target);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let nextId = 1;
  const pending = new Map<number, (result: unknown) => void>();
  ws.on('message', (data) => {
    const m = JSON.parse(String(data)) as { id?: number; result?: unknown };
    if (m.id !== undefined) pending.get(m.id)?.(m.result);
  });
  const call = <T>(method: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => reject(new Error(`inspector ${method} timed out`)), 30_000);
      pending.set(id, (result) => {
        clearTimeout(timer);
        pending.delete(id);
        resolve(result as T);
      });
      ws.send(JSON.stringify({ id, method }));
    });
  return {
    async heapUsedAfterGc() {
      await call('HeapProfiler.collectGarbage');
      const usage = await call<{ usedSize: number }>('Runtime.getHeapUsage');
      return usage.usedSize;
    },
    close: () => ws.close(),
  };
}
