import { Plus, Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input, Label } from '@/components/ui/input';

export interface InviteeRow {
  key: number;
  email: string;
  name: string;
}

/** Invitee rows of email and name; the last row cannot be removed (spec §2). */
export function InviteeRows({
  rows,
  onChange,
}: {
  rows: InviteeRow[];
  onChange: (rows: InviteeRow[]) => void;
}) {
  const update = (key: number, patch: Partial<InviteeRow>) =>
    onChange(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const add = () =>
    onChange([...rows, { key: Math.max(0, ...rows.map((r) => r.key)) + 1, email: '', name: '' }]);
  const remove = (key: number) => {
    if (rows.length > 1) onChange(rows.filter((r) => r.key !== key));
  };

  return (
    <fieldset className="grid gap-3">
      <legend className="mb-2 text-sm font-medium text-slate-700 dark:text-slate-200">Invitees</legend>
      {rows.map((row, i) => (
        <div
          key={row.key}
          className="grid grid-cols-[1fr_auto] gap-2 sm:grid-cols-[1.3fr_1fr_auto]"
          data-testid="invitee-row"
        >
          <div className="min-w-0">
            <Label htmlFor={`invitee-email-${row.key}`} className="sr-only">
              Invitee {i + 1} email
            </Label>
            <Input
              id={`invitee-email-${row.key}`}
              type="email"
              placeholder="email@example.com"
              value={row.email}
              onChange={(e) => update(row.key, { email: e.target.value })}
            />
          </div>
          <div className="col-start-1 row-start-2 min-w-0 sm:col-start-auto sm:row-start-auto">
            <Label htmlFor={`invitee-name-${row.key}`} className="sr-only">
              Invitee {i + 1} name
            </Label>
            <Input
              id={`invitee-name-${row.key}`}
              placeholder="Name (optional)"
              value={row.name}
              onChange={(e) => update(row.key, { name: e.target.value })}
            />
          </div>
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Remove invitee ${i + 1}`}
            disabled={rows.length === 1}
            onClick={() => remove(row.key)}
          >
            <Trash2 />
          </Button>
        </div>
      ))}
      <div>
        <Button variant="secondary" size="sm" onClick={add}>
          <Plus /> Add invitee
        </Button>
      </div>
    </fieldset>
  );
}
