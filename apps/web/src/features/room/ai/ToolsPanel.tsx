import { TRANSLATION_LANGUAGE_NAMES, TRANSLATION_LANGUAGES } from '@parley/protocol/constants';
import type { TranslationLanguage } from '@parley/protocol/ai';
import { Captions, CaptionsOff, Download, Languages } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { Switch } from '@/components/ui/switch';
import { useLocalMediaState, useRoomContext } from '../room-context';
import { transcriptExportUrl, useAiCapabilities } from './api';
import { TRANSCRIPTION_TEXTS } from '@parley/protocol/texts';
import { useCaptions, useTranscriptionConsent, useTranscriptionToggle } from './hooks';
import { consentSentence } from './TranscriptionConsent';
import { SummaryCard } from './SummaryCard';
import { TranscriptList } from './TranscriptList';

function TranscriptionSection() {
  const { on, busy, toggle, canStop, startedBy } = useTranscriptionToggle();
  const { streaming, notCaptioned } = useCaptions();
  const consent = useTranscriptionConsent();
  const media = useLocalMediaState();
  return (
    <section aria-labelledby="transcription-title" className="space-y-2 rounded-xl bg-white/5 p-3">
      <h4 id="transcription-title" className="flex items-center gap-2 font-semibold text-slate-100">
        <Captions className="size-4 text-sky-300" /> Live Transcription
      </h4>
      <p data-testid="transcription-status" className="text-xs text-slate-300">
        {on
          ? `On${startedBy ? `, started by ${startedBy.name}` : ''}. ${
              consent.consent !== 'allowed'
                ? consentSentence(consent.consent)
                : streaming
                  ? notCaptioned === 'busy'
                    ? 'Your speech is not being transcribed: every speech decoder on this server is in use. It starts when another speaker pauses.'
                    : notCaptioned === 'failed'
                      ? 'Your speech is not being transcribed: the speech engine could not start for you.'
                      : 'Your microphone is being transcribed.'
                  : media.isMuted
                    ? 'You are muted: nothing of yours is transcribed.'
                    : media.hasAudio
                      ? 'Connecting your microphone…'
                      : 'You have no microphone: nothing of yours is transcribed.'
            }`
          : 'Off. Everyone in the meeting sees when it is on, and each person may decline. Starting it counts as your own consent.'}
      </p>
      <div className="flex flex-wrap gap-2">
        {/* Stop is for everyone: only a host and whoever started it see it. */}
        {!on || canStop ? (
          <Button size="sm" onClick={() => void toggle()} disabled={busy}>
            {busy ? <Spinner className="size-4" /> : on ? <CaptionsOff /> : <Captions />}
            {on ? 'Stop Transcription' : 'Start Transcription'}
          </Button>
        ) : null}
        {on && consent.consent !== 'allowed' ? (
          <Button size="sm" variant="secondary" disabled={consent.answering} onClick={consent.allow}>
            {consent.consent === null ? TRANSCRIPTION_TEXTS.continue : TRANSCRIPTION_TEXTS.allow}
          </Button>
        ) : null}
        {on && consent.consent !== 'declined' ? (
          <Button size="sm" variant="secondary" disabled={consent.answering} onClick={consent.decline}>
            {consent.consent === null ? TRANSCRIPTION_TEXTS.decline : TRANSCRIPTION_TEXTS.declineLater}
          </Button>
        ) : null}
      </div>
    </section>
  );
}

function TranslationSection() {
  const { session } = useRoomContext();
  const { translationOn, language } = useCaptions();
  const caps = useAiCapabilities();
  const selectId = useId();
  const supported = (l: string) =>
    caps.data?.translation.targets.find((t) => t.language === l)?.supported ?? true;
  return (
    <section aria-labelledby="translation-title" className="space-y-2 rounded-xl bg-white/5 p-3">
      <div className="flex items-center justify-between gap-2">
        <h4 id="translation-title" className="flex items-center gap-2 font-semibold text-slate-100">
          <Languages className="size-4 text-emerald-300" /> Live Translation
        </h4>
        <span className="flex items-center gap-2 text-xs text-slate-300">
          {translationOn ? 'ON' : 'OFF'}
          <Switch
            checked={translationOn}
            onCheckedChange={(v) => session.captions.setTranslation(v)}
            aria-label="Live Translation"
          />
        </span>
      </div>
      <label htmlFor={selectId} className="block text-xs text-slate-400">
        Translate transcripts into
      </label>
      <select
        id={selectId}
        value={language}
        onChange={(e) => session.captions.setLanguage(e.target.value as TranslationLanguage)}
        className="h-10 w-full rounded-lg border border-white/15 bg-slate-800 px-2 text-sm text-slate-100 md:h-9"
      >
        {TRANSLATION_LANGUAGES.map((l) => (
          <option key={l} value={l} disabled={!supported(l)}>
            {TRANSLATION_LANGUAGE_NAMES[l]}
            {supported(l) ? '' : ' (not available on this server)'}
          </option>
        ))}
      </select>
      <p className="text-[11px] text-slate-500">
        Only you see your translations.
        {caps.data?.translation.engine ? ` Engine: ${caps.data.translation.engine}.` : ''}
      </p>
    </section>
  );
}

const EXPORTS = [
  { format: 'vtt', label: 'WebVTT', title: 'Subtitles for video players and editors' },
  { format: 'srt', label: 'SRT', title: 'SubRip subtitles' },
  { format: 'txt', label: 'Text', title: "Plain text, times in the meeting's time zone" },
] as const;

/** The transcript's downloads (Pro, as the summary's PDF): subtitles and text. */
function TranscriptDownloads() {
  const { session, isPro } = useRoomContext();
  if (!isPro) return null;
  return (
    <p
      className="flex flex-wrap items-center gap-x-2 text-xs text-slate-400"
      data-testid="transcript-downloads"
    >
      <Download aria-hidden className="size-3.5" />
      <span>Download</span>
      {EXPORTS.map((e) => (
        <a
          key={e.format}
          href={transcriptExportUrl(session.meetingId, e.format)}
          title={e.title}
          className="rounded text-sky-300 underline-offset-2 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-sky-400"
        >
          {e.label}
        </a>
      ))}
    </p>
  );
}

/** Meeting Tools (spec §2): the summarizer, live translation, transcription and the transcripts. */
export function ToolsPanel() {
  const { lines, interim, transcription } = useCaptions();
  return (
    // A column whose last part, the transcripts, takes the height left (at least 12rem) and
    // scrolls itself, so the newest words stay in sight at the panel's bottom; when the parts
    // above are taller than the panel (a long summary), the panel scrolls as a whole.
    <div className="flex h-full flex-col gap-3 overflow-y-auto p-3 text-sm text-slate-300">
      <div className="shrink-0 space-y-3">
        <h3 className="text-base font-semibold text-slate-100">Meeting Tools</h3>
        <SummaryCard />
        <TranslationSection />
        <TranscriptionSection />
      </div>
      <section aria-labelledby="transcripts-title" className="flex min-h-48 flex-1 flex-col gap-2">
        <h4 id="transcripts-title" className="font-semibold text-slate-100">
          Live Transcripts
        </h4>
        <TranscriptList lines={lines} interim={interim} active={transcription.active} />
        {lines.some((l) => l.kind !== 'notice') ? <TranscriptDownloads /> : null}
      </section>
    </div>
  );
}
