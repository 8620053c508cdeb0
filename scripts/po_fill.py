"""Fill empty or fuzzy Arabic translations from a JSON file {msgid: msgstr} (used by `make
messages` users: makemessages adds the new msgids, this writes their Arabic, fuzzy marks go)."""

from __future__ import annotations

import json
import sys
from pathlib import Path


def unquote(line: str) -> str:
    return json.loads(line[line.index('"') :])


def fill(po: Path, table: dict[str, str]) -> int:
    lines = po.read_text(encoding="utf-8").split("\n")
    out: list[str] = []
    done = i = 0
    while i < len(lines):
        if not lines[i].startswith("msgid "):
            out.append(lines[i])
            i += 1
            continue
        start = i
        msgid = unquote(lines[i])
        i += 1
        while i < len(lines) and lines[i].startswith('"'):
            msgid += unquote(lines[i])
            i += 1
        ids = lines[start:i]
        # the msgstr and its continuation lines
        j = i
        msgstr = unquote(lines[j]) if lines[j].startswith("msgstr ") else None
        j += 1
        while j < len(lines) and lines[j].startswith('"'):
            msgstr = (msgstr or "") + unquote(lines[j])
            j += 1
        fuzzy = any(line.startswith("#, fuzzy") for line in out[-4:])
        if msgid and msgid in table and (not msgstr or fuzzy):
            while out and (out[-1].startswith("#, fuzzy") or out[-1].startswith("#| ")):
                out.pop()
            out.extend(ids)
            out.append("msgstr " + json.dumps(table[msgid], ensure_ascii=False))
            done += 1
        else:
            out.extend(lines[start:j])
        i = j
    po.write_text("\n".join(out), encoding="utf-8")
    return done


if __name__ == "__main__":
    po = Path(sys.argv[1])
    table = json.loads(Path(sys.argv[2]).read_text(encoding="utf-8"))
    print(f"{fill(po, table)} translations written")
