import { SFU_VIEW } from '@parley/protocol/constants';
import type { RoomParticipant } from '@parley/protocol/ws';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useState, useSyncExternalStore, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { speakerLayout } from '../layout';
import { useRoomContext } from '../room-context';
import { useVideoView } from '../use-video-view';
import { RemoteAudio, RemoteTile } from './VideoTiles';

/** Thumbnails per page on a phone: one row under the stage (this participant's own tile and two). */
export const PHONE_THUMBNAILS_PER_PAGE = 2;
const PHONE_QUERY = '(max-width: 767px)';

function subscribeNarrow(onChange: () => void): () => void {
  const mq = window.matchMedia?.(PHONE_QUERY);
  mq?.addEventListener('change', onChange);
  return () => mq?.removeEventListener('change', onChange);
}
const isNarrow = (): boolean => window.matchMedia?.(PHONE_QUERY).matches ?? false;

/**
 * A room on the SFU: the active speaker large on the stage, everyone else as thumbnails a page at
 * a time (this participant's own tile first). The page tells the SFU which videos it shows and
 * at which quality (stage high, thumbnails low): participants on other pages send it no video,
 * and are heard through an audio element.
 */
export function SpeakerView({
  participants,
  activeSpeakerId,
  selfTile,
  speakerId,
}: {
  participants: RoomParticipant[];
  activeSpeakerId: string | null;
  selfTile: ReactNode;
  speakerId?: string;
}) {
  const { session } = useRoomContext();
  const [page, setPage] = useState(0);
  // Who the stage showed last: it stays there while this participant itself is the one speaking.
  const [lastStage, setLastStage] = useState<string | null>(null);
  const narrow = useSyncExternalStore(subscribeNarrow, isNarrow, () => false);
  const perPage = narrow ? PHONE_THUMBNAILS_PER_PAGE : SFU_VIEW.thumbnailsPerPage;
  const ids = participants.map((p) => p.id);
  const layout = speakerLayout(ids, activeSpeakerId, lastStage, page, perPage);
  if (layout.stage !== lastStage) setLastStage(layout.stage);
  const byId = new Map(participants.map((p) => [p.id, p]));
  const stage = layout.stage ? byId.get(layout.stage) : undefined;

  useVideoView({ kind: 'speaker', stage: layout.stage, thumbnails: layout.thumbnails });

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2 py-1 md:flex-row" data-testid="speaker-view">
      <div className="min-h-0 flex-1" data-testid="speaker-stage" data-participant-id={stage?.id}>
        {stage ? (
          <RemoteTile
            key={stage.id}
            remote={session.remote}
            participant={stage}
            stage
            speakerId={speakerId}
          />
        ) : null}
      </div>
      <div aria-label="Participants" className="flex shrink-0 flex-col gap-2 md:w-64 lg:w-72">
        <div
          className="grid grid-cols-3 content-start gap-2 md:grid-cols-2 md:overflow-y-auto"
          data-testid="speaker-thumbnails"
        >
          {selfTile}
          {layout.thumbnails.map((id) => {
            const p = byId.get(id);
            return p ? (
              <RemoteTile key={id} remote={session.remote} participant={p} small speakerId={speakerId} />
            ) : null;
          })}
        </div>
        {layout.pages > 1 ? (
          <div className="flex items-center justify-center gap-2 text-xs text-slate-300">
            <Button
              size="icon"
              variant="ghost"
              aria-label="Previous page"
              disabled={layout.page === 0}
              onClick={() => setPage(layout.page - 1)}
            >
              <ChevronLeft className="size-4" />
            </Button>
            <span data-testid="speaker-page">
              Page {layout.page + 1} of {layout.pages}
            </span>
            <Button
              size="icon"
              variant="ghost"
              aria-label="Next page"
              disabled={layout.page >= layout.pages - 1}
              onClick={() => setPage(layout.page + 1)}
            >
              <ChevronRight className="size-4" />
            </Button>
          </div>
        ) : null}
      </div>
      {layout.offPage.map((id) => (
        <RemoteAudio key={id} remote={session.remote} participantId={id} speakerId={speakerId} />
      ))}
    </div>
  );
}
