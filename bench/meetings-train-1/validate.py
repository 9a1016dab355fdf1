#!/usr/bin/env python3
"""Check a training set: transcripts well formed, keys parse, lines in range,
owners are speakers, dates valid, and the README table matches the keys.
Checks this directory, or the one given: validate.py bench/meetings-train-2"""
import datetime, glob, json, os, re, sys

here = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
errors = []
rows = {}
for txt in sorted(glob.glob(os.path.join(here, "*.txt"))):
    name = os.path.basename(txt)[:-4]
    raw = open(txt, encoding="utf-8").read()
    lines = raw.split("\n")
    if lines[-1] == "":
        lines.pop()
    speakers = set()
    for i, l in enumerate(lines, 1):
        m = re.match(r"^([A-Z][A-Za-z]*): \S", l)
        if not m:
            errors.append(f"{name}:{i}: not a 'Speaker: text' line")
        else:
            speakers.add(m.group(1))
    if not 25 <= len(lines) <= 45:
        errors.append(f"{name}: {len(lines)} lines, want 25-45")
    try:
        key = json.load(open(os.path.join(here, name + ".key.json"), encoding="utf-8"))
    except Exception as e:
        errors.append(f"{name}: key does not parse: {e}")
        continue
    if set(key) != {"set", "meetingDate", "actionItems", "decisions"}:
        errors.append(f"{name}: unexpected key fields {sorted(key)}")
    if key.get("set") != "train":
        errors.append(f"{name}: set is {key.get('set')!r}")
    date = datetime.date.fromisoformat(key["meetingDate"])
    for a in key["actionItems"]:
        if set(a) != {"text", "owner", "due", "line"}:
            errors.append(f"{name}: action item fields {sorted(a)}")
        if not (isinstance(a["line"], int) and 1 <= a["line"] <= len(lines)):
            errors.append(f"{name}: action line {a['line']} out of range")
        if a["owner"] is not None and a["owner"] not in speakers:
            errors.append(f"{name}: owner {a['owner']} is not a speaker")
        if a["due"] is not None and datetime.date.fromisoformat(a["due"]) < date:
            errors.append(f"{name}: due {a['due']} before the meeting")
        if not a["text"].strip():
            errors.append(f"{name}: empty action text")
    for d in key["decisions"]:
        if set(d) != {"text", "line"}:
            errors.append(f"{name}: decision fields {sorted(d)}")
        if not (isinstance(d["line"], int) and 1 <= d["line"] <= len(lines)):
            errors.append(f"{name}: decision line {d['line']} out of range")
        if not d["text"].strip():
            errors.append(f"{name}: empty decision text")
    rows[name] = (key["meetingDate"], len(lines), len(key["actionItems"]), len(key["decisions"]))

# README table: | meeting | style | date | lines | action items | decisions |
readme = open(os.path.join(here, "README.md"), encoding="utf-8").read()
table = {}
for m in re.finditer(r"^\| *([a-z0-9-]+|\*\*total\*\*) *\|[^|]*\| *([0-9-]*) *\| *\**(\d+)\** *\| *\**(\d+)\** *\| *\**(\d+)\** *\|$", readme, re.M):
    table[m.group(1)] = (m.group(2), int(m.group(3)), int(m.group(4)), int(m.group(5)))
for name, row in rows.items():
    if table.get(name) != row:
        errors.append(f"README row for {name} is {table.get(name)}, keys say {row}")
extra = set(table) - set(rows) - {"**total**"}
if extra:
    errors.append(f"README lists meetings with no files: {sorted(extra)}")
tot = (sum(r[1] for r in rows.values()), sum(r[2] for r in rows.values()), sum(r[3] for r in rows.values()))
if table.get("**total**", (None,))[1:] != tot:
    errors.append(f"README total is {table.get('**total**')}, keys say {tot}")
empty = [n for n, r in rows.items() if r[2] == 0 and r[3] == 0]
print(f"{len(rows)} meetings, {tot[0]} lines, {tot[1]} action items, {tot[2]} decisions; empty: {empty}")
for e in errors:
    print("ERROR", e)
sys.exit(1 if errors else 0)
