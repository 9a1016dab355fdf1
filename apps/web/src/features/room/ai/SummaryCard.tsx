import { Download, FileDown, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { Switch } from '@/components/ui/switch';
import { ApiError } from '@/lib/api';
import { useRoomContext, useRoomState } from '../room-context';
import { summaryPdfUrl, useGenerateSummary, useKeepContent, useSavedSummary, type SummaryView } from './api';
import { actionItemLine, firstOf, summaryFileName, summaryText } from './summary-text';

/** Spec §8 summary alerts. */
const NO_CONVERSATION = 'Please start recording and have some conversation first.';
const NETWORK_ERROR = 'Error generating summary. Please try again.';

function downloadText(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function Result({ s, meetingId }: { s: SummaryView; meetingId: string }) {
  const points = firstOf(s.keyPoints, 3);
  const items = firstOf(s.actionItems, 2);
  const date = new Date(s.generatedAt);
  return (
    <div data-testid="summary-result" className="space-y-2 text-sm">
      <p className="text-slate-100">{s.summary || 'None'}</p>
      <div>
        <h5 className="text-xs font-semibold uppercase tracking-wide text-slate-400">Key points</h5>
        {points.shown.length ? (
          <ul className="list-disc space-y-0.5 pl-5">
            {points.shown.map((k, i) => (
              <li key={i}>{k.text}</li>
            ))}
          </ul>
        ) : (
          <p className="text-slate-400">None</p>
        )}
        {points.more > 0 ? <p className="text-xs text-slate-400">+{points.more} more points</p> : null}
      </div>
      <div>
        <h5 className="text-xs font-semibold uppercase tracking-wide text-slate-400">Action items</h5>
        {items.shown.length ? (
          <ul className="list-disc space-y-0.5 pl-5" data-testid="summary-action-items">
            {items.shown.map((a, i) => (
              <li key={i}>{actionItemLine(a)}</li>
            ))}
          </ul>
        ) : (
          <p className="text-slate-400">None</p>
        )}
        {items.more > 0 ? <p className="text-xs text-slate-400">+{items.more} more items</p> : null}
      </div>
      <p className="text-[11px] text-slate-500">
        {s.decisions.length} decision{s.decisions.length === 1 ? '' : 's'} · from {s.sourceLines} lines ·{' '}
        {s.engine}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          variant="ghost"
          className="border border-white/20 text-slate-100 hover:bg-white/10"
          onClick={() => downloadText(summaryFileName(meetingId, date), summaryText(s))}
        >
          <Download /> Download as text
        </Button>
        <Button
          size="sm"
          variant="ghost"
          className="border border-white/20 text-slate-100 hover:bg-white/10"
          asChild
        >
          <a href={summaryPdfUrl(meetingId)} download={summaryFileName(meetingId, date, 'pdf')}>
            <FileDown /> Export PDF
          </a>
        </Button>
      </div>
    </div>
  );
}

/** Meeting Summarizer (spec §2): Generate Summary, the first points and items, text and PDF. */
export function SummaryCard() {
  const { session, layout, isPro } = useRoomContext();
  const { self, participants } = useRoomState();
  const meetingId = session.meetingId;
  const saved = useSavedSummary(meetingId, session.joinToken, isPro);
  const generate = useGenerateSummary(meetingId, session.joinToken);
  const keep = useKeepContent(meetingId, session.joinToken);
  const [alert, setAlert] = useState<string | null>(null);
  /** The host's Save, once changed here; until then what the summary said. */
  const [keptChoice, setKept] = useState<boolean | null>(null);
  const summary = generate.data ?? saved.data ?? null;
  const kept = keptChoice ?? summary?.kept ?? null;

  const run = () => {
    setAlert(null);
    if (!isPro) {
      layout.setDialog('upgrade');
      return;
    }
    const names = [self, ...participants].filter((p) => !!p).map((p) => p.name);
    generate.mutate(names, {
      onError: (err) => {
        if (err instanceof ApiError && err.requiresSubscription) layout.setDialog('upgrade');
        else if (!(err instanceof ApiError)) setAlert(NETWORK_ERROR);
        // 422 is the spec's "nothing to summarise"; a cooldown (429) or a summariser that gave up
        // (503) says in its own words how long to wait.
        else setAlert(err.status === 422 ? NO_CONVERSATION : err.serverMessage || NETWORK_ERROR);
      },
    });
  };

  return (
    <section aria-labelledby="summarizer-title" className="space-y-2 rounded-xl bg-white/5 p-3">
      <h4 id="summarizer-title" className="flex items-center gap-2 font-semibold text-slate-100">
        <Sparkles className="size-4 text-fuchsia-300" /> Meeting Summarizer
      </h4>
      <Button size="sm" onClick={run} disabled={generate.isPending}>
        {generate.isPending ? <Spinner className="size-4" /> : null}
        {generate.isPending ? 'Generating...' : 'Generate Summary'}
      </Button>
      {alert ? (
        <p role="alert" className="rounded-lg bg-red-500/15 p-2 text-sm text-red-200">
          {alert}
        </p>
      ) : null}
      {summary ? <Result s={summary} meetingId={meetingId} /> : null}
      {summary && self?.isHost && kept !== null ? (
        <label className="flex items-center justify-between gap-2 pt-1 text-xs text-slate-300">
          <span>
            Keep everything from this meeting after 30 days
            <span className="block text-[11px] text-slate-500">
              Transcript, summary, recordings, notes, whiteboard, chat, files and attendance.
            </span>
          </span>
          <Switch
            checked={kept}
            disabled={keep.isPending}
            aria-label="Keep everything from this meeting after 30 days"
            onCheckedChange={(v) => keep.mutate(v, { onSuccess: (r) => setKept(r.keep) })}
          />
        </label>
      ) : null}
    </section>
  );
}
