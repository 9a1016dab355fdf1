// First: sets where Excalidraw loads its fonts from, before Excalidraw's module runs.
import './excalidraw-assets';
import { CaptureUpdateAction, Excalidraw, exportToBlob, reconcileElements } from '@excalidraw/excalidraw';
import type { OrderedExcalidrawElement } from '@excalidraw/excalidraw/element/types';
import type { AppState, Collaborator, ExcalidrawImperativeAPI, SocketId } from '@excalidraw/excalidraw/types';
import '@excalidraw/excalidraw/index.css';
import { Download } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { LOCAL_ORIGIN, type CollabClient } from './collab-client';
import { writeScene, type SharedElement } from './whiteboard-sync';

type RemoteElements = Parameters<typeof reconcileElements>[1];

/**
 * The meeting's whiteboard: Excalidraw bound to the shared map 'whiteboard' (element id →
 * element). Local changes are written when they beat what the map holds; the others' changes
 * are reconciled into the scene with Excalidraw's own rules; cursors and names come from the
 * awareness.
 */
export default function Whiteboard({ client, meetingId }: { client: CollabClient; meetingId: string }) {
  const [api, setApi] = useState<ExcalidrawImperativeAPI | null>(null);
  const map = client.doc.getMap<SharedElement>('whiteboard');
  const frame = useRef<number | null>(null);

  useEffect(() => {
    if (!api) return;
    const apply = () => {
      frame.current = null;
      const remote = [...map.values()] as unknown as RemoteElements;
      const elements = reconcileElements(api.getSceneElementsIncludingDeleted(), remote, api.getAppState());
      api.updateScene({ elements, captureUpdate: CaptureUpdateAction.NEVER });
    };
    const schedule = (_e: unknown, tx: { origin: unknown }) => {
      if (tx.origin === LOCAL_ORIGIN) return;
      frame.current ??= requestAnimationFrame(apply);
    };
    apply();
    map.observe(schedule);

    const collaborators = () => {
      const out = new Map<SocketId, Collaborator>();
      client.awareness.getStates().forEach((state, id) => {
        if (id === client.doc.clientID || !state.pointer) return;
        const user = (state.user ?? {}) as { name?: string; color?: string };
        const color = user.color ?? '#1971c2';
        out.set(String(id) as SocketId, {
          pointer: state.pointer as Collaborator['pointer'],
          button: state.button as Collaborator['button'],
          username: user.name ?? 'Someone',
          color: { background: color, stroke: color },
        });
      });
      api.updateScene({ collaborators: out });
    };
    client.awareness.on('change', collaborators);
    collaborators();
    return () => {
      map.unobserve(schedule);
      client.awareness.off('change', collaborators);
      if (frame.current) cancelAnimationFrame(frame.current);
    };
  }, [api, client, map]);

  const onChange = (elements: readonly OrderedExcalidrawElement[]) => {
    writeScene(map, elements as unknown as SharedElement[], (fn) => client.doc.transact(fn, LOCAL_ORIGIN));
  };

  const exportPng = async () => {
    if (!api) return;
    const blob = await exportToBlob({
      elements: api.getSceneElements(),
      appState: { ...api.getAppState(), exportBackground: true } as AppState,
      files: api.getFiles(),
      mimeType: 'image/png',
    });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = `whiteboard-${meetingId}.png`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  return (
    <div className="flex h-full min-h-0 flex-col" data-testid="whiteboard" data-own-shortcuts>
      <div className="flex items-center justify-end gap-2 px-2 py-1">
        <Button
          size="sm"
          variant="ghost"
          className="text-slate-200 hover:bg-white/10"
          onClick={() => void exportPng()}
        >
          <Download /> Export PNG
        </Button>
      </div>
      <div className="min-h-0 flex-1">
        <Excalidraw
          excalidrawAPI={setApi}
          onChange={onChange}
          onPointerUpdate={({ pointer, button }) => {
            client.awareness.setLocalStateField('pointer', pointer);
            client.awareness.setLocalStateField('button', button);
          }}
          isCollaborating
          theme="light"
          UIOptions={{
            tools: { image: false },
            canvasActions: { loadScene: false, saveToActiveFile: false },
          }}
        />
      </div>
    </div>
  );
}
