/** A video track's label, state and settings as a definition list. */
export function TrackDetails({ track }: { track: MediaStreamTrack }) {
  const s = track.getSettings();
  const rows: [string, string][] = [
    ['Label', track.label || 'unnamed'],
    ['Kind', track.kind],
    ['State', track.readyState],
    ['Enabled', track.enabled ? 'yes' : 'no'],
    ['Resolution', s.width && s.height ? `${s.width}x${s.height}` : 'unknown'],
    ['Frame rate', s.frameRate ? `${Math.round(s.frameRate)} fps` : 'unknown'],
    ['Facing mode', s.facingMode ?? 'unknown'],
    ['Device id', s.deviceId ? `${s.deviceId.slice(0, 12)}…` : 'unknown'],
  ];
  return (
    <dl data-testid="track-details" className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
      {rows.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-slate-500">{k}</dt>
          <dd className="break-all font-medium">{v}</dd>
        </div>
      ))}
    </dl>
  );
}
