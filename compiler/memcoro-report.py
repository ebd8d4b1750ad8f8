#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""memcoro-report: what memcoro did to every marked loop of a build.

Reads the optimisation records clang writes with -fsave-optimization-record
(one .opt.yaml beside each object file) and prints one line per marked loop:

    src/lookup.c:41: transformed, parallel(16), ring dispatch, 2 suspension points, 48 bytes of context
    src/lookup.c:57: serial, parallel(16): a value is carried from one iteration to the next ...

    memcoro-report [--root DIR] [--html FILE] PATH...

PATH is a build directory (searched for *.opt.yaml) or a record file. Source
paths are printed relative to --root (default: the current directory). --html
also writes a page with the same table, each loop linked to its source lines.
Python 3 standard library only: the records are read by a small parser for the
subset of YAML that LLVM writes (see parse_records), so PyYAML is not needed.
"""

import argparse
import copy
import html
import os
import sys

PASS = "memcoro"
LOOP_OUTCOMES_OK = {"Transformed", "PrefetchAhead"}
# A missed remark that goes with a PrefetchAhead outcome: why the loop was
# kept in its order rather than interleaved.
NOT_INTERLEAVED = "NotInterleaved"


# --- Reading LLVM's remark YAML -------------------------------------------------
#
# Each remark is one document:
#   --- !Passed
#   Pass:            memcoro
#   Name:            Transformed
#   DebugLoc:        { File: t.c, Line: 8, Column: 3 }
#   Function:        sum_gather
#   Args:
#     - String:          'loop turned into '
#     - Parallelism:     '8'
#       DebugLoc:        { File: ..., Line: ..., Column: ... }   (some arguments)
#   ...
# Scalars are plain, 'single-quoted' ('' is a quote) or "double-quoted" (with
# backslash escapes); a quoted scalar may continue on following lines.


def _scan_scalar(text, i, stops):
    """Reads the scalar starting at text[i]; returns (value, index after it, closed)."""
    if i < len(text) and text[i] == "'":
        out, i = [], i + 1
        while i < len(text):
            if text[i] == "'":
                if text[i + 1:i + 2] == "'":
                    out.append("'")
                    i += 2
                    continue
                return "".join(out), i + 1, True
            out.append(text[i])
            i += 1
        return "".join(out), i, False
    if i < len(text) and text[i] == '"':
        out, i = [], i + 1
        escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "/": "/", "0": "\0"}
        while i < len(text):
            c = text[i]
            if c == '"':
                return "".join(out), i + 1, True
            if c == "\\" and i + 1 < len(text):
                n = text[i + 1]
                if n == "x" and i + 3 < len(text):
                    out.append(chr(int(text[i + 2:i + 4], 16)))
                    i += 4
                    continue
                out.append(escapes.get(n, n))
                i += 2
                continue
            out.append(c)
            i += 1
        return "".join(out), i, False
    j = i
    while j < len(text) and text[j] not in stops:
        j += 1
    return text[i:j].strip(), j, True


def _flow_mapping(text):
    """{ File: t.c, Line: 8, Column: 3 } -> dict."""
    inner = text.strip()[1:-1]
    result, i = {}, 0
    while i < len(inner):
        while i < len(inner) and inner[i] in " ,":
            i += 1
        if i >= len(inner):
            break
        key, i, _ = _scan_scalar(inner, i, ":")
        i += 1  # the ':'
        while i < len(inner) and inner[i] == " ":
            i += 1
        value, i, _ = _scan_scalar(inner, i, ",}")
        result[key] = value
    return result


def _value(lines, k, rest):
    """The scalar or flow mapping in `rest` (line k), joining continuation lines
    of a quoted scalar; returns (value, index of the next line)."""
    rest = rest.strip()
    if rest.startswith("{"):
        while not rest.rstrip().endswith("}") and k + 1 < len(lines):
            k += 1
            rest += " " + lines[k].strip()
        return _flow_mapping(rest), k + 1
    value, _, closed = _scan_scalar(rest, 0, "")
    while not closed and k + 1 < len(lines):
        k += 1
        rest += " " + lines[k].strip()
        value, _, closed = _scan_scalar(rest, 0, "")
    return value, k + 1


def parse_records(text):
    """Yields one dict per remark: Kind (Passed/Missed/Analysis), Pass, Name,
    DebugLoc (dict), Function, Args (list of (key, value))."""
    lines = text.splitlines()
    k, remark = 0, None
    while k < len(lines):
        line = lines[k]
        if line.startswith("---"):
            if remark is not None:
                yield remark
            tag = line[3:].strip()
            remark = {"Kind": tag[1:] if tag.startswith("!") else tag, "Args": []}
            k += 1
        elif line.startswith("..."):
            if remark is not None:
                yield remark
            remark = None
            k += 1
        elif remark is None or not line.strip():
            k += 1
        elif line.startswith("  - ") or line.startswith("- "):
            key, _, rest = line.split("- ", 1)[1].partition(":")
            value, k = _value(lines, k, rest)
            remark["Args"].append((key.strip(), value))
        elif line.startswith(" "):
            # A further field of the current argument (its DebugLoc): not needed.
            _, k = _value(lines, k, line.partition(":")[2])
        else:
            key, _, rest = line.partition(":")
            if rest.strip():
                remark[key.strip()], k = _value(lines, k, rest)
            else:
                k += 1
    if remark is not None:
        yield remark


# --- From remarks to marked loops -----------------------------------------------


class Loop:
    """One marked loop: where its pragma is and what happened to it."""

    def __init__(self, file, line, column, function, parallel, remote):
        self.file, self.line, self.column = file, line, column
        self.function = function
        self.parallel = parallel
        self.remote = remote
        self.outcome = None  # the remark that says transformed or serial
        self.not_interleaved = None  # why a loop kept in order was not interleaved

    def transformed(self):
        return self.outcome is not None and self.outcome["Name"] in LOOP_OUTCOMES_OK

    def loop_line(self):
        loc = self.outcome and self.outcome.get("DebugLoc")
        line = _int(loc.get("Line")) if loc else 0
        return line if line >= self.line else self.line

    def summary(self):
        marked = (f"parallel({self.parallel})" if self.parallel else "parallelism chosen by memcoro")
        if self.remote:
            marked += f", remote({self.remote})"
        if self.outcome is None:
            return f"not transformed, {marked}: no outcome recorded for this loop"
        args = dict(self.outcome["Args"])
        if self.outcome["Name"] == "PrefetchAhead":
            why = f": not interleaved: {reason(self.not_interleaved)}" if self.not_interleaved else ""
            return f"transformed, {marked}, serial order with prefetches ahead{why}"
        if self.transformed():
            suspend = int(args.get("SuspendPoints", 0))
            return (f"transformed, parallel({args.get('Parallelism', '?')}), "
                    f"{args.get('Dispatch', '?')} dispatch, "
                    f"{suspend} suspension point{'' if suspend == 1 else 's'}, "
                    f"{args.get('ContextBytes', '?')} bytes of context")
        return f"serial, {marked}: {reason(self.outcome)}"


def _int(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def message(remark):
    return "".join(str(v) for _, v in remark["Args"])


def reason(remark):
    text = message(remark)
    for prefix in ("marked loop left serial: ", "marked loop not transformed: ",
                   "marked loop not interleaved, kept in serial order with prefetches ahead: ",
                   "#pragma memcoro: "):
        if text.startswith(prefix):
            return text[len(prefix):]
    return text


def _location(remark):
    loc = remark.get("DebugLoc") or {}
    return loc.get("File", ""), _int(loc.get("Line")), _int(loc.get("Column"))


def _owner(loops, remark):
    """The marked loop an outcome remark speaks of.

    The Marked remark sits at the pragma; the outcome at the loop (the line
    below) or, for a rejection, at the instruction that made it serial, inside
    the loop. Marking runs before inlining, so the outcome may name the
    function the loop was inlined into. So: the nearest mark above it in the
    same file, preferring one still undecided, in the same function, with the
    same parallel(N). An outcome without a usable line (line 0: a merged
    location) goes to the first such mark in its file.
    """
    file, line, _ = _location(remark)
    function = remark.get("Function", "")
    parallel = _int(dict(remark["Args"]).get("Parallelism"))
    same_file = [l for l in loops if l.file == file]
    if line > 0:
        above = [l for l in same_file if l.line <= line]
        nearest = max((l.line for l in above), default=None)
        candidates = [l for l in above if l.line == nearest]
    else:
        candidates = same_file

    def rank(l):
        return (l.outcome is not None, l.function != function,
                bool(parallel and l.parallel and l.parallel != parallel), l.line)
    return min(candidates, key=rank, default=None)


def collect(remarks):
    """The marked loops of one translation unit, each with its outcome."""
    loops, outcomes, notes = [], [], []
    for r in remarks:
        if r.get("Pass") != PASS:
            continue
        name = r.get("Name")
        file, line, column = _location(r)
        args = dict(r["Args"])
        if name == "Marked":
            loops.append(Loop(file, line, column, r.get("Function", ""),
                              _int(args.get("Parallelism")), args.get("Remote", "")))
        elif name == "NoLoop":
            # The pragma's statement did not become a loop: no Marked remark.
            loop = Loop(file, line, column, r.get("Function", ""), 0, "")
            loop.outcome = r
            loops.append(loop)
        elif r["Kind"] == "Missed" and name == NOT_INTERLEAVED:
            notes.append(r)
        elif r["Kind"] == "Passed" and name in LOOP_OUTCOMES_OK or r["Kind"] == "Missed":
            outcomes.append(r)

    for r in outcomes:
        loop = _owner(loops, r)
        if loop is None:
            continue
        if loop.outcome is not None:
            # A second copy of the loop (inlined into two callers, say).
            loop = copy.copy(loop)
            loops.append(loop)
        loop.outcome = r
    for r in notes:
        kept = [l for l in loops if l.outcome is not None and l.outcome["Name"] == "PrefetchAhead"
                and l.not_interleaved is None and l.function == r.get("Function", "")]
        file, line, _ = _location(r)
        above = [l for l in kept if l.file == file and l.line <= line]
        if above:
            max(above, key=lambda l: l.line).not_interleaved = r
    # A mark whose function was inlined everywhere and then deleted has no
    # outcome of its own: its copies speak for it.
    decided = {(l.file, l.line) for l in loops if l.outcome is not None}
    return [l for l in loops if l.outcome is not None or (l.file, l.line) not in decided]


def group(loops):
    """One entry per marked loop and outcome: a loop in a template, an inline
    function or a header is marked once per copy; identical copies are merged."""
    groups = {}
    for l in loops:
        groups.setdefault((l.file, l.line, l.summary()), []).append(l)
    return [(copies[0], len(copies)) for _, copies in sorted(groups.items(), key=lambda g: g[0])]


# --- Output ----------------------------------------------------------------------


def display_path(file, root):
    if os.path.isabs(file):
        rel = os.path.relpath(file, root)
        if not rel.startswith(".."):
            return rel
    return file


def text_report(entries, root):
    out = []
    for loop, copies in entries:
        more = f" [{copies} copies]" if copies > 1 else ""
        out.append(f"{display_path(loop.file, root)}:{loop.line}: {loop.summary()}{more}")
    transformed = sum(1 for loop, _ in entries if loop.transformed())
    out.append(f"{len(entries)} marked loop{'' if len(entries) == 1 else 's'}: "
               f"{transformed} transformed, {len(entries) - transformed} serial")
    return "\n".join(out) + "\n"


def resolve(file, record_dir, root):
    """The source file a record names. clang writes it relative to the longest
    directory it shares with the compiler's working directory, which is not
    recorded; that directory is an ancestor of the working directory and so,
    in the usual build where objects go below it, of the record. So the first
    ancestor of the record's directory that holds the file, else --root."""
    if os.path.isabs(file):
        return file
    d = record_dir
    while True:
        candidate = os.path.join(d, file)
        if os.path.isfile(candidate):
            return os.path.normpath(candidate)
        if os.path.dirname(d) == d:
            break
        d = os.path.dirname(d)
    candidate = os.path.join(root, file)
    return os.path.normpath(candidate) if os.path.isfile(candidate) else file


def _source(file):
    if not os.path.isfile(file):
        return None
    with open(file, encoding="utf-8", errors="replace") as f:
        return f.read().splitlines()


CSS = """
body { font-family: sans-serif; margin: 2em; }
table.loops td { padding: 2px 8px; vertical-align: top; }
.transformed { color: #176117; } .serial { color: #9b1c1c; }
pre { margin: 0; } table.src { border-collapse: collapse; font-family: monospace; }
table.src td { padding: 0 6px; white-space: pre; } td.n { color: #888; text-align: right; }
tr.mark { background: #fff3c4; } tr.loop { background: #fff9e0; }
td.note { font-family: sans-serif; font-size: 90%; }
"""


def html_report(entries, root):
    esc = html.escape
    files = sorted({loop.file for loop, _ in entries})
    ids = {f: f"f{i}" for i, f in enumerate(files)}
    out = ["<!DOCTYPE html>", "<html><head><meta charset='utf-8'><title>memcoro report</title>",
           f"<style>{CSS}</style></head><body>", "<h1>memcoro: marked loops</h1>",
           "<table class='loops'>"]
    for loop, copies in entries:
        cls = "transformed" if loop.transformed() else "serial"
        where = f"{display_path(loop.file, root)}:{loop.line}"
        more = f" [{copies} copies]" if copies > 1 else ""
        out.append(f"<tr><td><a href='#{ids[loop.file]}-L{loop.line}'>{esc(where)}</a></td>"
                   f"<td class='{cls}'>{esc(loop.summary() + more)}</td></tr>")
    out.append("</table>")
    for file in files:
        loops = [loop for loop, _ in entries if loop.file == file]
        out.append(f"<h2 id='{ids[file]}'>{esc(display_path(file, root))}</h2>")
        text = _source(file)
        if text is None:
            out.append("<p>source not found (run memcoro-report from the directory the paths are "
                       "relative to, or give it with --root)</p>")
            continue
        notes = {}
        for loop in loops:
            notes.setdefault(loop.line, []).append(loop)
        span = {n for loop in loops for n in range(loop.line + 1, loop.loop_line() + 1)}
        out.append("<table class='src'>")
        for n, src in enumerate(text, 1):
            cls = " class='mark'" if n in notes else " class='loop'" if n in span else ""
            note = "; ".join(l.summary() for l in notes.get(n, []))
            out.append(f"<tr id='{ids[file]}-L{n}'{cls}><td class='n'>{n}</td><td>{esc(src)}</td>"
                       f"<td class='note'>{esc(note)}</td></tr>")
        out.append("</table>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def record_files(paths):
    found = []
    for p in paths:
        if os.path.isdir(p):
            for d, _, names in os.walk(p):
                found += [os.path.join(d, n) for n in names if n.endswith(".opt.yaml")]
        elif os.path.isfile(p):
            found.append(p)
        else:
            sys.exit(f"memcoro-report: error: {p}: no such file or directory")
    return sorted(found)


def main():
    ap = argparse.ArgumentParser(
        prog="memcoro-report",
        description="One line per loop marked with #pragma memcoro, from the build's "
                    "-fsave-optimization-record files.")
    ap.add_argument("paths", nargs="+", metavar="PATH", help="build directory or .opt.yaml file")
    ap.add_argument("--root", default=os.getcwd(),
                    help="print source paths relative to this directory, and look a source up "
                         "here when it is not found beside the records (default: the current "
                         "directory)")
    ap.add_argument("--html", metavar="FILE", help="also write a browsable page to FILE")
    args = ap.parse_args()

    files = record_files(args.paths)
    if not files:
        sys.exit("memcoro-report: error: no .opt.yaml files found: compile with "
                 "-fsave-optimization-record (and -foptimization-record-passes=memcoro)")
    root = os.path.abspath(args.root)
    loops = []
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as f:
            unit = collect(parse_records(f.read()))
        for loop in unit:
            loop.file = resolve(loop.file, os.path.dirname(os.path.abspath(path)), root)
        loops += unit
    entries = group(loops)
    sys.stdout.write(text_report(entries, root))
    if args.html:
        with open(args.html, "w", encoding="utf-8") as f:
            f.write(html_report(entries, root))


if __name__ == "__main__":
    main()
