#!/usr/bin/env python3
"""Rebuild rules_data/entries/*.json and rules_data/spells.json from the seed rulebooks.

Usage:  python tools/build_rules_data.py SEEDS_DIR [--out RULES_DATA_DIR]

Inputs are the seed files (see ../shared/seeds/INVENTORY.md) plus the hand-curated
overlay in rules_data/overlay/. The output is deterministic: the same inputs give
byte-identical files (sorted keys, fixed ordering, no timestamps).

How each seed becomes entries:
- 000 (Living Rulebook, scanned plain text): section headings are listed in
  overlay/sections.json (generated once from a heuristic, then reviewed by hand),
  tab-separated tables become Markdown tables, scan noise is fixed from
  overlay/corrections.json, paragraphs broken by page breaks are re-joined.
- 002 / 004 (Markdown): headings give the sections; hard-wrapped lines are reflowed,
  table separators normalised, "\\page" markers dropped.
- 003 (White Dwarf article, OCR): headings from overlay/sections.json; background
  sidebars are lifted out of the rules text into entries of kind "background".
- 001 (quick reference) is not an edition: its paragraphs become the `summary` of the
  000 entries they paraphrase (overlay/summaries.json).
- 000's spell lists end in a "D6 Result" heading whose rows are the spells that follow
  (000:1589, 1645, 1701, 1763, 1819): each list gets the table of its spells, numbered as
  printed (two Lesser Magic spells print no number and take theirs from their place, see
  overlay/spells.json). A "D6 Result" heading over list items (000:1524, 1719) becomes a table.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "rules_data"

EDITION_OF_SEED = {"000": "lrb", "002": "core", "004": "core2", "003": "wd"}
SUMMARY_SEED = "001"

# Chapters of 002/004 (Markdown) that start a new chapter in our ids; everything before
# the first of them is the introduction.
MD_CHAPTERS = {
    "characteristics", "the turn", "movement", "shooting", "close combat",
    "leadership & psychology", "alignment",
}

CHAPTER_SLUGS = {
    "leadership & psychology": "psychology",
    "weapons & armour": "weapons",
    "miscellaneous equipment": "equipment",
    "hand-to-hand combat": "close-combat",
}

US_TO_UK = {"armor": "armour", "armored": "armoured"}


class BuildError(Exception):
    pass


# ---------------------------------------------------------------- small helpers

def slugify(text: str) -> str:
    text = text.lower().replace("&", " ").replace("'", "").replace("’", "")
    text = re.sub(r"[^a-z0-9]+", "-", text)
    return text.strip("-")


def topic_slug(text: str) -> str:
    """Slug used to pair sections across editions (US spellings folded to UK)."""
    words = slugify(text).split("-")
    return "-".join(US_TO_UK.get(w, w) for w in words if w)


def nice_title(raw: str, overrides: dict[str, str]) -> str:
    raw = raw.strip().strip("*").strip()
    raw = re.sub(r"\s+[*?.]$", "", raw)  # OCR marks after sidebar titles (003:21, 93, 128)
    if raw in overrides:
        return overrides[raw]
    outside = re.sub(r"\(.*?\)", "", raw)
    if outside.isupper() or raw[:1].islower():
        parts = re.split(r"(\(.*?\))", raw)  # keep "(WS)", "(Ld)" as printed
        raw = "".join(p if p.startswith("(") else p.lower() for p in parts)
        raw = raw[:1].upper() + raw[1:]
    return raw


def chapter_slug(title: str) -> str:
    key = title.lower().strip()
    return CHAPTER_SLUGS.get(key, slugify(title))


def seed_path(seeds_dir: Path, prefix: str) -> Path:
    found = sorted(seeds_dir.glob(f"{prefix}_*.txt"))
    if not found:
        raise BuildError(f"no seed file {prefix}_*.txt in {seeds_dir}")
    return found[0]


def load_json(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


def dump_json(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


# ---------------------------------------------------------------- corrections

def apply_corrections(seed: str, lines: list[str], corrections: list[dict]) -> list[str]:
    """Apply every overlay correction whose `where` names this seed; each must match.

    A correction never changes the number of lines, so source line ranges stay true.
    """
    out = list(lines)
    for c in corrections:
        if c["where"]["seed"] != seed:
            continue
        only = c["where"].get("lines")
        pattern = re.compile(
            (r"(?<![A-Za-z])" if c["from"][:1].isalpha() else "")
            + re.escape(c["from"])
            + (r"(?![A-Za-z])" if c["from"][-1:].isalpha() else "")
        )
        hits = 0
        for i, line in enumerate(out, 1):
            if only and i not in only:
                continue
            new, n = pattern.subn(c["to"].replace("\\", "\\\\"), line)
            if n:
                out[i - 1] = new
                hits += n
        if not hits:
            raise BuildError(f"correction {c['from']!r} -> {c['to']!r} matched nothing in {seed}")
    return out


# ---------------------------------------------------------------- plain text -> Markdown

TERMINAL = tuple('.!?:;"”)*|')


def _table_md(rows: list[list[str]], header: list[str] | None) -> list[str]:
    rows = [[c.strip() for c in r] for r in rows]
    for r in rows:
        while r and not r[-1]:
            r.pop()
    ncols = max(len(r) for r in rows)
    if header is not None:
        ncols = max(ncols, len(header))
    rows = [r + [""] * (ncols - len(r)) for r in rows]
    if header is None:
        header, rows = rows[0], rows[1:]
    while header and not header[-1]:  # the padding of a header row, not a column of its own
        header = header[:-1]
    header = _over_label_columns(header, rows)
    ncols = max(ncols, len(header))
    rows = [r + [""] * (ncols - len(r)) for r in rows]  # a row short of values lacks its last ones (000:722)
    header = header + [""] * (ncols - len(header))
    esc = lambda c: c.replace("|", "\\|") or " "  # noqa: E731
    out = ["| " + " | ".join(esc(c) for c in header) + " |", "|" + "---|" * ncols]
    out += ["| " + " | ".join(esc(c) for c in r) + " |" for r in rows]
    return out


def _label_columns(rows: list[list[str]]) -> int:
    """How many leading cells of each row are labels rather than values: one (the row's heading),
    or two when the first column holds only the chart's axis title, in its first row and blank
    below ("attacker's Strength", 000:722; "weapon's strength", 000:524), the headings beside it."""
    if len(rows) > 2 and rows[0] and rows[0][0] and not any(r[0] for r in rows[1:] if r):
        return 2
    return 1


def _over_label_columns(header: list[str], rows: list[list[str]]) -> list[str]:
    """``header`` with its column labels over the rows' values: a header of column labels that leaves
    fewer blank cells before them than the rows have label cells gets the blanks it lacks in front.
    The close-combat wound chart prints one blank before its Toughness labels but two label cells in
    each row (000:721-722), and its rows stop at T9 (INVENTORY ambiguity 4): without this each value
    read one column to the left (S3 against T3 as 3+, not 4+)."""
    lead = next((k for k, c in enumerate(header) if c), len(header))
    wanted = _label_columns(rows)
    if 0 < lead < wanted < len(header):
        return [""] * (wanted - lead) + header
    return header


def _format_paragraph(p: str) -> str:
    s = p.strip()
    if re.fullmatch(r"SPECIAL RULES?", s):
        return "**Special rules**" if s.endswith("S") else "**Special rule**"
    m = re.fullmatch(r"Difficulty:?\s*(\w+)", s)
    if m:
        return f"**Difficulty:** {m.group(1)}"
    if len(s) <= 40 and re.search(r"[A-Z]", s) and not re.search(r"[a-z]", s) and not re.match(r"[\d-]", s):
        return "**" + s[:1] + s[1:].lower() + "**"
    # "Name: text" at the start of a paragraph (special rules, characteristics, effects).
    m = re.match(r"^([A-Z+][A-Za-z0-9'’+ /()-]{0,38}?):\s*(?:\*\*)?", s)
    if m and len(m.group(1).split()) <= 6 and not s.startswith("**"):
        name = m.group(1)
        rest = s[m.end():]
        return f"**{name}:** {rest}"
    return s


def render_plain(numbered: list[tuple[int, str]]) -> str:
    """Scanned plain text (000, 003) -> Markdown. Tabs mark table rows."""
    blocks: list[tuple[str, object]] = []  # ("p", text) | ("t", rows)
    for _, line in numbered:
        if "\t" in line and line.strip():
            if blocks and blocks[-1][0] == "t" and blocks[-1][2]:  # type: ignore[index]
                blocks[-1][1].append(line.split("\t"))  # type: ignore[union-attr]
            else:
                blocks.append(("t", [line.split("\t")], True))  # type: ignore[arg-type]
            continue
        if blocks and blocks[-1][0] == "t":
            blocks[-1] = ("t", blocks[-1][1], False)  # table closed by any other line
        s = line.strip()
        if not s:
            if blocks and blocks[-1][0] == "p":
                blocks[-1] = ("p", blocks[-1][1], False)
            continue
        prev = blocks[-1] if blocks else None
        # Re-join a sentence broken by a line or page break (e.g. 000:633-637).
        if prev and prev[0] == "p" and not str(prev[1]).rstrip().endswith(TERMINAL) and s[:1].islower():
            blocks[-1] = ("p", str(prev[1]).rstrip() + " " + s, True)
            continue
        blocks.append(("p", s, True))

    out: list[str] = []
    i = 0
    while i < len(blocks):
        kind, content = blocks[i][0], blocks[i][1]
        if kind == "t":
            rows = [list(r) for r in content]  # type: ignore[union-attr]
            captions = []
            while rows and sum(1 for c in rows[0] if c.strip()) == 1 and len(rows) > 1:
                captions.append(next(c.strip() for c in rows[0] if c.strip()))
                rows.pop(0)
            header = None
            trimmed = max(len(_strip_trailing(r)) for r in rows)
            # Column headers printed as separate lines above a table (000:745-747).
            k = trimmed
            if len(out) >= k and k > 1 and all(
                len(x) <= 20 and not x.startswith(("|", "**")) for x in out[-k:]
            ) and all(_is_plain_para(x) for x in out[-k:]):
                header = out[-k:]
                del out[-k:]
            for cap in captions:
                out.append(f"**{cap}**")
            out.append("\n".join(_table_md(rows, header)))
        else:
            out.append(_format_paragraph(str(content)))
        i += 1
    return "\n\n".join(x for x in out if x)


D6_RESULT = "D6 Result"
D6_ROW = re.compile(r"^- (\d(?:-\d)?) (.+)$", re.S)


def d6_lists_to_tables(body: str) -> str:
    """A "D6 Result" heading over list items ("- 2-5 The model gains...", 000:1719-1723) as a table."""
    paras = body.split("\n\n")
    out: list[str] = []
    i = 0
    while i < len(paras):
        if paras[i].strip() == D6_RESULT:
            rows = []
            j = i + 1
            while j < len(paras) and D6_ROW.match(paras[j].strip()):
                m = D6_ROW.match(paras[j].strip())
                rows.append((m.group(1), m.group(2)))
                j += 1
            if rows:
                cells = [(roll, text.replace("|", "\\|")) for roll, text in rows]
                out.append("\n".join(["| D6 | Result |", "|---|---|"] + [f"| {roll} | {text} |" for roll, text in cells]))
                i = j
                continue
        out.append(paras[i])
        i += 1
    return "\n\n".join(out)


def _strip_trailing(r: list[str]) -> list[str]:
    r = list(r)
    while r and not r[-1].strip():
        r.pop()
    return r


def _is_plain_para(x: str) -> bool:
    return "\n" not in x and not x.startswith(("-", "|"))


# ---------------------------------------------------------------- Markdown seeds

SEP_CELL = re.compile(r"^\s*:?\s*-[\s-]*:?\s*$")


def _split_row(line: str) -> list[str]:
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|"):
        s = s[:-1]
    return [c.strip() for c in s.split("|")]


def render_markdown(numbered: list[tuple[int, str]]) -> str:
    """002/004 section text -> tidy Markdown: reflow wrapped lines, normalise tables."""
    paras: list[list[str]] = []
    cur: list[str] = []
    for _, line in numbered:
        s = line.rstrip()
        if s.strip() in ("\\page", ""):
            if cur:
                paras.append(cur)
                cur = []
            continue
        cur.append(s.strip())
    if cur:
        paras.append(cur)

    out: list[str] = []
    for lines in paras:
        # Table rows and list items keep their own lines; prose lines are reflowed.
        chunk: list[str] = []
        table: list[str] = []

        def flush_table():
            if not table:
                return
            rows = [_split_row(t) for t in table]
            ncols = max(len(r) for r in rows)
            if len(rows) > 1 and all(SEP_CELL.match(c) or not c for c in rows[1]):
                rows.pop(1)
            elif len(rows) > 0 and all(SEP_CELL.match(c) or not c for c in rows[0]):
                rows.pop(0)
            rows = [r + [""] * (ncols - len(r)) for r in rows]
            header = rows[0]
            body = rows[1:]
            md = ["| " + " | ".join(c or " " for c in header) + " |", "|" + "---|" * ncols]
            md += ["| " + " | ".join(c or " " for c in r) + " |" for r in body]
            out.append("\n".join(md))
            table.clear()

        for ln in lines:
            if ln.startswith("|"):
                if chunk:
                    out.append(" ".join(chunk))
                    chunk = []
                table.append(ln)
                continue
            flush_table()
            if re.match(r"^([-*]|\d+\.)\s", ln):
                if chunk:
                    out.append(" ".join(chunk))
                    chunk = []
                out.append(ln)
                continue
            chunk.append(ln)
        flush_table()
        if chunk:
            out.append(" ".join(chunk))
    return "\n\n".join(out)


def markdown_headings(lines: list[str]) -> list[list]:
    """Headings of a Markdown seed as [line, level, title], chapters at level 1."""
    heads = []
    for i, line in enumerate(lines, 1):
        m = re.match(r"^(#{1,6})\s+(.*\S)\s*$", line)
        if not m:
            continue
        title = m.group(2).strip().strip("*").strip()
        if len(m.group(1)) == 1:
            continue  # "# Core Rules": the book title
        heads.append([i, 2, title])
    # A heading broken in two (002:986-988 "Attacking stunned and knocked down" / "warriors").
    merged = []
    for h in heads:
        if merged and h[2][:1].islower() and _only_blank_between(lines, merged[-1][0], h[0]):
            merged[-1] = [merged[-1][0], merged[-1][1], merged[-1][2] + " " + h[2], h[0]]
            continue
        merged.append(h)
    out = [[100000, 0, ""]]  # placeholder removed below
    out = []
    seen_chapter = False
    for h in merged:
        if h[2].lower() in MD_CHAPTERS:
            h = [h[0], 1, h[2]] + h[3:]
            seen_chapter = True
        elif not seen_chapter and not out:
            out.append([h[0], 1, "Introduction", "synthetic"])
        out.append(h)
    return out


def _only_blank_between(lines: list[str], a: int, b: int) -> bool:
    return all(not lines[k - 1].strip() for k in range(a + 1, b))


# ---------------------------------------------------------------- sections -> entries

def sections_from_headings(seed: str, lines: list[str], heads: list[list], skip: set[int]):
    """Yield dicts: title, level, chapter, group, start, end (1-based, inclusive), body_lines."""
    heads = sorted(heads, key=lambda h: (h[0], h[1]))
    chapter = None
    group = None
    result = []
    for n, h in enumerate(heads):
        line, level, title = h[0], h[1], h[2]
        synthetic = len(h) > 3 and h[3] == "synthetic"
        last_heading_line = h[3] if len(h) > 3 and isinstance(h[3], int) else line
        next_line = len(lines) + 1
        for later in heads[n + 1:]:
            if later[0] > line or (synthetic and later[0] == line):
                next_line = later[0]
                break
        if level == 1:
            chapter = title
            group = None
        elif level == 2:
            group = title
        body_start = line if synthetic else last_heading_line + 1
        body = [(k, lines[k - 1]) for k in range(body_start, next_line) if k not in skip]
        if synthetic and not any(t.strip() for _, t in body):
            continue  # a chapter the book does not print, with no text of its own
        if not synthetic and len(h) > 2 and not heads_are_markdown(lines, line):
            title = lines[line - 1].strip()  # corrected text, not the raw overlay copy
        end = next_line - 1
        while end > line and (not lines[end - 1].strip() or end in skip):
            end -= 1
        result.append({
            "title": title, "level": level, "chapter": chapter,
            "group": group if level == 3 else None,
            "start": line, "end": end, "body_lines": body,
        })
    return result


def heads_are_markdown(lines: list[str], line: int) -> bool:
    return lines[line - 1].lstrip().startswith("#")


def build_edition(seed: str, path: Path, overlay: dict) -> list[dict]:
    edition = EDITION_OF_SEED[seed]
    raw_lines = path.read_text(encoding="utf-8").split("\n")
    if raw_lines and raw_lines[-1] == "":
        raw_lines.pop()
    lines = apply_corrections(seed, raw_lines, overlay["corrections"])
    sec_overlay = overlay["sections"].get(seed, {})
    skip: set[int] = set()
    background = []
    for bg in sec_overlay.get("background", []):
        a, b = bg["lines"]
        skip.update(range(a, b + 1))
        background.append(bg)
    if seed in ("002", "004"):
        heads = markdown_headings(lines)
        render = render_markdown
    else:
        heads = sec_overlay["headings"]
        render = render_plain
    title_over = overlay["titles"]
    entries = []
    used_ids: set[str] = set()
    for sec in sections_from_headings(seed, lines, heads, skip):
        title = nice_title(sec["title"], title_over)
        title = re.sub(r"^\d+\s+", "", title)  # "1 The Hammer of Sigmar": d6 roll kept in spells.json
        chap_title = nice_title(sec["chapter"], title_over) if sec["chapter"] else "Introduction"
        chap = chapter_slug(chap_title)
        if sec["level"] == 1:
            eid = f"{edition}/{chap}"
            path_titles = [chap_title]
        else:
            eid = f"{edition}/{chap}/{slugify(title)}"
            path_titles = [chap_title] + ([nice_title(sec["group"], title_over)] if sec["group"] else []) + [title]
        base, k = eid, 2
        while eid in used_ids:
            eid = f"{base}-{k}"
            k += 1
        used_ids.add(eid)
        body = render(sec["body_lines"])
        if seed == "000":
            body = d6_lists_to_tables(body)
        entries.append({
            "id": eid, "edition": edition, "title": title, "path": path_titles,
            "kind": "rule", "body": body, "aliases": [], "related": [],
            "source": {"file": path.name, "lines": [[sec["start"], sec["end"]]]},
            "_level": sec["level"], "_group": sec["group"], "_chapter": chap,
            "_raw_heading": sec["title"],
        })
    for bg in background:
        a, b = bg["lines"]
        eid = f"{edition}/background/{slugify(bg['title'])}"
        entries.append({
            "id": eid, "edition": edition, "title": bg["title"], "path": ["Background", bg["title"]],
            "kind": "background", "body": render([(k, lines[k - 1]) for k in range(a, b + 1)]),
            "aliases": [], "related": [],
            "source": {"file": path.name, "lines": [[a, b]]},
            "_level": 2, "_group": None, "_chapter": "background", "_raw_heading": bg["title"],
        })
    # Empty sections (a group heading straight followed by its children) list their children.
    for e in entries:
        if not e["body"].strip():
            kids = [x["title"] for x in entries if x["_group"] and nice_title(x["_group"], title_over) == e["title"]
                    and x["_chapter"] == e["_chapter"]]
            if not kids:
                kids = [x["title"] for x in entries if x["_chapter"] == e["_chapter"] and x is not e
                        and e["_level"] == 1]
            e["body"] = ("Sections: " + ", ".join(kids) + ".") if kids else "_(No text in the source.)_"
    return entries, lines


# ---------------------------------------------------------------- kinds, special rules, spells

def assign_kinds(entries: list[dict], overlay: dict) -> None:
    kinds = overlay["kinds"]
    for e in entries:
        chap = e["_chapter"]
        group = (e["_group"] or "").lower()
        if e["kind"] == "background":
            continue
        if chap == "weapons":
            e["kind"] = "armour" if group == "armour" or e["title"] == "Armour" else "weapon"
        elif chap == "equipment":
            e["kind"] = "equipment"
        elif chap == "psychology":
            e["kind"] = "psychology"
        elif chap == "magic" and e["_level"] == 3:
            e["kind"] = "spell"
        if e["id"] in kinds:
            e["kind"] = kinds[e["id"]]
        elif e["kind"] == "rule" and "|---|" in e["body"] and e["body"].count("\n|") >= max(3, e["body"].count("\n") // 2):
            e["kind"] = "table"


SPECIAL_RULE_PARA = re.compile(r"^\*\*([^*:]{2,40}):\*\*\s*(.+)$")


def extract_special_rules(entries: list[dict], raw_lines: list[str], overlay: dict) -> list[dict]:
    """Weapon and armour special rules (000:899-1321) become entries of their own."""
    not_special = set(overlay["special_rules"]["not_special"])
    rename = overlay["special_rules"]["rename"]
    found: dict[str, dict] = {}
    for e in entries:
        if e["kind"] not in ("weapon", "armour") or e["edition"] != "lrb":
            continue
        paras = e["body"].split("\n\n")
        in_rules = False
        names = []
        for p in paras:
            if p in ("**Special rules**", "**Special rule**"):
                in_rules = True
                continue
            m = SPECIAL_RULE_PARA.match(p)
            if not (in_rules and m):
                continue
            name = m.group(1).strip()
            name = rename.get(name, name)
            if name in not_special:
                continue
            names.append(name)
            key = topic_slug(name)
            line = _find_line(raw_lines, m.group(2)[:40], e["source"]["lines"][0])
            rec = found.setdefault(key, {"name": name, "items": []})
            rec["items"].append((e, m.group(2).strip(), line))
        e["_special"] = names
    out = []
    for key in sorted(found):
        rec = found[key]
        name = rec["name"][:1].upper() + rec["name"][1:]
        eid = f"lrb/special-rules/{key}"
        body = []
        lines = []
        for item, text, line in rec["items"]:
            body.append(f"**{item['title']}:** {text}")
            lines.append([line, line])
        out.append({
            "id": eid, "edition": "lrb", "title": name,
            "path": ["Weapons & armour", "Special rules", name], "kind": "rule",
            "body": "\n\n".join(body), "aliases": [], "related": [x[0]["id"] for x in rec["items"]],
            "source": {"file": rec["items"][0][0]["source"]["file"], "lines": lines},
            "_level": 2, "_group": None, "_chapter": "special-rules", "_raw_heading": name,
        })
        for item, _, _ in rec["items"]:
            if eid not in item["related"]:
                item["related"].append(eid)
    return out


def _find_line(lines: list[str], needle: str, rng: list[int]) -> int:
    needle = re.sub(r"\*", "", needle)[:25]
    for k in range(rng[0], rng[1] + 1):
        if needle in lines[k - 1].replace("*", ""):
            return k
    return rng[0]


SPELL_LISTS = {"prayers-of-sigmar", "necromancy", "chaos-rituals", "lesser-magic", "magic-of-the-horned-rat"}


def spell_list_tables(entries: list[dict], spells: list[dict]) -> None:
    """Each spell list ends on "D6 Result" (000:1589, 1645, 1701, 1763, 1819): the spells that
    follow are its rows. Give the list the table of its spells and cite their lines too."""
    by_list: dict[str, list[dict]] = {}
    for sp in spells:
        by_list.setdefault(sp["list_id"], []).append(sp)
    for e in entries:
        if e["id"].split("/")[-1] not in SPELL_LISTS or e["_chapter"] != "magic":
            continue
        mine = sorted(by_list.get(e["id"].split("/")[-1], []), key=lambda sp: sp["d6"])
        if not mine:
            raise BuildError(f"spell list {e['id']} has no spells")
        paras = e["body"].split("\n\n")
        if paras[-1].strip() != D6_RESULT:
            raise BuildError(f"spell list {e['id']} does not end on '{D6_RESULT}'")
        rows = ["| D6 | Spell | Difficulty |", "|---|---|---|"]
        for sp in mine:
            difficulty = "Auto" if sp["auto"] else str(sp["difficulty"])
            rows.append(f"| {sp['d6']} | {sp['name']} | {difficulty} |")
        unprinted = [sp for sp in mine if not sp.get("d6_printed", True)]
        paras[-1] = "**D6 Result**\n\n" + "\n".join(rows)
        if unprinted:
            paras.append("The book prints no number before " + " and ".join(
                f"{sp['name']} (000:{sp['source']['lines'][0][0]})" for sp in unprinted
            ) + "; they are numbered here by their place in the list.")
        paras.append("A wizard rolls a D6 on this table for each spell; the same spell twice means rolling "
                     "again or lowering its Difficulty by 1 (000:1571). Casting is 2D6 equal to or over the "
                     "Difficulty (000:1575).")
        e["body"] = "\n\n".join(paras)
        first, last = mine[0]["source"]["lines"][0][0], max(sp["source"]["lines"][-1][1] for sp in mine)
        e["source"]["lines"].append([first, last])


def extract_spells(entries: list[dict], lines: list[str], overlay: dict) -> list[dict]:
    """Structured spells from 000's Magic chapter (000:1583-1867; INVENTORY §2 Spells)."""
    over = overlay["spells"]
    spells = []
    for e in entries:
        if e["kind"] != "spell":
            continue
        heading = e["_raw_heading"].strip()
        m = re.match(r"^(\d)\s+(.*)$", heading)
        number = int(m.group(1)) if m else None
        body = e["body"]
        dm = re.search(r"\*\*Difficulty:\*\*\s*(\w+)", body)
        diff_raw = dm.group(1) if dm else None
        difficulty = int(diff_raw) if diff_raw and diff_raw.isdigit() else None
        rm = re.search(r'range of (\d+)"', body) or re.search(r'within (\d+)"', body)
        hm = re.search(r"(D3|D6\+2|2D6|one|One|a|\d+)\s+(?:Strength|S)\s?(\d+)\s+hits?", body)
        rec = {
            "id": e["id"], "name": e["title"], "list": e["path"][1],
            "list_id": slugify(e["path"][1]), "d6": number,
            "difficulty": difficulty, "auto": diff_raw is not None and diff_raw.lower() == "auto",
            "range_inches": int(rm.group(1)) if rm else None,
            "hits": (("1" if hm.group(1).lower() in ("one", "a") else hm.group(1).upper()) if hm else None),
            "strength": int(hm.group(2)) if hm else None,
            "source": e["source"],
        }
        rec.update(over.get(e["id"], {}))
        spells.append(rec)
    # 000:1799 and 000:1807 print no number: the spells of a list are numbered 1-6 in order
    for list_id in sorted({sp["list_id"] for sp in spells}):
        mine = [sp for sp in spells if sp["list_id"] == list_id]
        for place, sp in enumerate(mine, start=1):
            if sp["d6"] is None:
                sp["d6"], sp["d6_printed"] = place, False
            elif sp["d6"] != place:
                raise BuildError(f"{sp['id']} is printed as {sp['d6']} but is spell {place} of its list")
    return spells


# ---------------------------------------------------------------- links

def link_counterparts(all_entries: list[dict], overlay: dict) -> None:
    """Pair each entry with the same topic in the other editions, and say if the text differs."""
    topic_over = overlay["topics"]

    def key(e):
        return topic_over.get(e["id"], f"{e['_chapter']}/{topic_slug(e['title'])}")

    by_ed: dict[str, dict[str, list[dict]]] = {}
    by_title: dict[str, dict[str, list[dict]]] = {}
    for e in all_entries:
        if e["kind"] == "background" or e["_chapter"] == "special-rules":
            continue
        by_ed.setdefault(e["edition"], {}).setdefault(key(e), []).append(e)
        by_title.setdefault(e["edition"], {}).setdefault(topic_slug(e["title"]), []).append(e)
    for e in all_entries:
        e["counterparts"] = []
        if e["kind"] == "background" or e["_chapter"] == "special-rules":
            continue
        for ed in sorted(by_ed):
            if ed == e["edition"]:
                continue
            cands = by_ed[ed].get(key(e), [])
            if not cands:
                t = by_title[ed].get(topic_slug(e["title"]), [])
                cands = t if len(t) == 1 and e["id"] not in topic_over else []
            if not cands:
                cands = _same_text_elsewhere(e, [c for c in all_entries if c["edition"] == ed])
            for c in cands[:1]:
                e["counterparts"].append({"id": c["id"], "differs": _norm(c["body"]) != _norm(e["body"])})


SHARED_TEXT = 0.5  # share of the shorter body's three-word runs found in the other: the same text


def _same_text_elsewhere(e: dict, others: list[dict]) -> list[dict]:
    """The section of another edition, in the same chapter, that carries the same text under
    another title (000's "Turn sequence" is 002's "Phases"; "Citadel models" became
    "Representative models" in 004), best first; none if no section shares enough of it."""
    mine = _shingles(e["body"])
    if len(mine) < 8:
        return []
    scored = []
    for c in others:
        if c["_chapter"] != e["_chapter"] or c["kind"] == "background" or c["_chapter"] == "special-rules":
            continue
        theirs = _shingles(c["body"])
        if len(theirs) < 8:
            continue
        shared = len(mine & theirs) / min(len(mine), len(theirs))
        if shared >= SHARED_TEXT:
            scored.append((-shared, c["id"], c))
    return [c for _, _, c in sorted(scored)]


def _shingles(body: str) -> set[str]:
    w = _norm(body).split()
    return {" ".join(w[i:i + 3]) for i in range(len(w) - 2)}


def _norm(body: str) -> str:
    words = re.findall(r"[a-z0-9]+", body.lower())
    return " ".join(US_TO_UK.get(w, w) for w in words)


def apply_links(all_entries: list[dict], overlay: dict, stats_ids: set[str] | None) -> None:
    by_id = {e["id"]: e for e in all_entries}
    title_slugs: dict[str, dict[str, str]] = {}  # edition -> title slug -> entry id
    for e in all_entries:
        title_slugs.setdefault(e["edition"], {})[topic_slug(e["title"])] = e["id"]

    def named_elsewhere(alias: str, target: dict) -> bool:
        """Another entry of the target's edition is titled by this alias ("toughness" is core's
        "Toughness (T)", not its "Characteristics"): the alias stays with that one."""
        slug = topic_slug(alias)
        return any((t == slug or t.startswith(slug + "-")) and other != target["id"]
                   for t, other in title_slugs.get(target["edition"], {}).items())

    # Aliases are written against lrb ids and shared by every counterpart of the same topic, in
    # the same chapter (core's "Missile weapons" critical table is not lrb's weapons chapter).
    for eid, aliases in overlay["aliases"].items():
        if eid not in by_id:
            raise BuildError(f"aliases.json names unknown entry {eid}")
        targets = [by_id[eid]] + [by_id[c["id"]] for c in by_id[eid].get("counterparts", [])
                                  if by_id[c["id"]]["_chapter"] == by_id[eid]["_chapter"]]
        for t in targets:
            for a in aliases:
                if t is not by_id[eid] and named_elsewhere(a, t):
                    continue
                if a not in t["aliases"]:
                    t["aliases"].append(a)
    for eid, rel in overlay["related"].items():
        if eid not in by_id:
            raise BuildError(f"related.json names unknown entry {eid}")
        for r in rel:
            if r not in by_id:
                raise BuildError(f"related.json: {eid} -> unknown {r}")
            for a, b in ((eid, r), (r, eid)):
                if b not in by_id[a]["related"]:
                    by_id[a]["related"].append(b)
    stats_over = overlay["stats"]
    for e in all_entries:
        if e["kind"] in ("weapon", "armour", "equipment") and e["edition"] == "lrb" and e["_level"] > 1:
            sid = stats_over.get(e["id"], slugify(e["title"]))
            if sid and (stats_ids is None or sid in stats_ids):
                e["stats"] = sid
        e["aliases"] = sorted(set(e["aliases"]), key=str.lower)
        e["related"] = sorted(set(e["related"]) - {e["id"]})


def attach_summaries(entries: list[dict], qr_path: Path, overlay: dict) -> None:
    qr_lines = qr_path.read_text(encoding="utf-8").split("\n")
    by_id = {e["id"]: e for e in entries}
    for s in overlay["summaries"]:
        a, b = s["lines"]
        text = "\n".join(line.strip() for line in qr_lines[a - 1:b] if line.strip())
        text = re.sub(r"^#+\s*", "", text, flags=re.M).replace("**", "")
        for eid in s["to"]:
            if eid not in by_id:
                raise BuildError(f"summaries.json names unknown entry {eid}")
            e = by_id[eid]
            if "summary" in e:
                e["summary"]["text"] += "\n" + text
                e["summary"]["source"]["lines"].append([a, b])
            else:
                e["summary"] = {"text": text, "source": {"file": qr_path.name, "lines": [[a, b]]}}


# ---------------------------------------------------------------- main

def load_overlay(out_dir: Path) -> dict:
    ov = out_dir / "overlay"
    names = ["corrections", "sections", "aliases", "related", "summaries", "titles", "kinds",
             "stats", "topics", "special_rules", "spells"]
    overlay = {n: load_json(ov / f"{n}.json") for n in names}
    for n, v in overlay.items():
        if isinstance(v, dict):
            v.pop("_doc", None)  # a note for reviewers, not data
    return overlay


def load_stats_ids(out_dir: Path) -> set[str] | None:
    files = sorted((out_dir / "stats").glob("*.json")) if (out_dir / "stats").is_dir() else []
    if not files:
        return None
    ids: set[str] = set()
    for f in files:
        ids |= collect_ids(load_json(f))
    return ids


def collect_ids(obj) -> set[str]:
    """Every string `id` value anywhere in a stats file, whatever its layout."""
    ids: set[str] = set()
    if isinstance(obj, dict):
        if isinstance(obj.get("id"), str):
            ids.add(obj["id"])
        for v in obj.values():
            ids |= collect_ids(v)
    elif isinstance(obj, list):
        for v in obj:
            ids |= collect_ids(v)
    return ids


def build(seeds_dir: Path, out_dir: Path) -> dict[str, int]:
    overlay = load_overlay(out_dir)
    stats_ids = load_stats_ids(out_dir)
    all_entries: list[dict] = []
    lrb_lines: list[str] = []
    for seed in ("000", "002", "004", "003"):
        entries, lines = build_edition(seed, seed_path(seeds_dir, seed), overlay)
        assign_kinds(entries, overlay)
        if seed == "000":
            lrb_lines = lines
            entries += extract_special_rules(entries, lines, overlay)
        all_entries += entries
    lrb = [e for e in all_entries if e["edition"] == "lrb"]
    spells = extract_spells(lrb, lrb_lines, overlay)
    spell_list_tables(lrb, spells)
    attach_summaries(lrb, seed_path(seeds_dir, SUMMARY_SEED), overlay)
    link_counterparts(all_entries, overlay)
    apply_links(all_entries, overlay, stats_ids)

    (out_dir / "entries").mkdir(parents=True, exist_ok=True)
    counts = {}
    for seed, ed in EDITION_OF_SEED.items():
        mine = [{k: v for k, v in e.items() if not k.startswith("_")} for e in all_entries if e["edition"] == ed]
        counts[ed] = len(mine)
        doc = {"edition": ed, "seed": seed_path(seeds_dir, seed).name, "entries": mine}
        (out_dir / "entries" / f"{ed}.json").write_text(dump_json(doc), encoding="utf-8")
    (out_dir / "spells.json").write_text(
        dump_json({"source": seed_path(seeds_dir, "000").name, "spells": spells}), encoding="utf-8")
    counts["spells"] = len(spells)
    return counts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seeds_dir", type=Path)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT,
                    help="rules_data directory holding overlay/ (outputs go beside it)")
    args = ap.parse_args(argv)
    try:
        counts = build(args.seeds_dir, args.out)
    except BuildError as exc:
        print(f"build failed: {exc}", file=sys.stderr)
        return 1
    print(" ".join(f"{k}={v}" for k, v in counts.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
