import type { AttendanceEntry } from '@parley/protocol/report';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatDuration } from './format';

/** Talk time per participant as horizontal bars (recharts; this module loads lazily). */
export default function TalkTimeChart({ attendance }: { attendance: AttendanceEntry[] }) {
  const data = attendance.map((a) => ({ name: a.name, seconds: Math.round(a.talkMs / 1000) }));
  const height = Math.max(120, data.length * 44 + 40);
  return (
    // overflow-hidden: until the chart's ResizeObserver fires after a resize, its old width must
    // not widen the page.
    <div style={{ height }} className="min-w-0 overflow-hidden" data-testid="talk-time-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} layout="vertical" margin={{ top: 4, right: 24, bottom: 4, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke="#94a3b833" />
          <XAxis
            type="number"
            dataKey="seconds"
            tickFormatter={(s: number) => formatDuration(s * 1000)}
            allowDecimals={false}
            stroke="#94a3b8"
            fontSize={12}
          />
          <YAxis type="category" dataKey="name" width={96} stroke="#94a3b8" fontSize={12} />
          <Tooltip
            formatter={(value) => [formatDuration(Number(value) * 1000), 'Talk time']}
            cursor={{ fill: '#6366f122' }}
          />
          <Bar dataKey="seconds" fill="#6366f1" radius={[0, 4, 4, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
