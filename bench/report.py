"""Run every benchmark in bench/ and write one table of their figures to RESULTS.md.

Each script is run as a subprocess (in this order: engine, orders, store, render,
scale, fsyncs, diplomacy, mila_compare, diplomacy_bot, mail_transport, mail,
fuzz, report_mail, hostile; those missing are skipped). Every
figure the scripts print as a ratio against their own baseline of the same
run - ``1.23x`` or ``ratio 1.23`` on an output line - becomes a row:
script, what the line measures, the ratio. The machine it ran on (CPU model,
cores, memory, Python, date) heads the file; the scripts' full output follows
for reference. A ``## Notes`` section written by hand before the runs (a
before/after table) is kept as it is.

Run: ``.venv/bin/python bench/report.py [--out bench/RESULTS.md] [--only NAME ...]``
(``--only`` re-runs some scripts and keeps the other runs already in the file;
``--reread`` rebuilds the table from the outputs recorded in the file.)
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
ORDER = ["engine", "orders", "store", "render", "scale", "fsyncs", "diplomacy", "mila_compare",
         "diplomacy_bot", "mail_transport", "mail", "fuzz",
         "report_mail", "hostile"]
TIMEOUT = 1800

_RATIO = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)x(?![\w])|\bratio\s+(\d+(?:\.\d+)?)"
                    r"|\bcosts\s+(\d+(?:\.\d+)?)\s+copies")


@dataclass
class Run:
    name: str
    status: int
    seconds: float
    output: str
    figures: list[tuple[str, float]] = field(default_factory=list)


def machine() -> dict[str, str]:
    cpu = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = "unknown"
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                memory = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
                break
    except OSError:
        pass
    return {
        "CPU": cpu,
        "cores": str(os.cpu_count()),
        "memory": memory,
        "Python": platform.python_version(),
        "system": f"{platform.system()} {platform.release()}",
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


def figures(output: str) -> list[tuple[str, float]]:
    """Every ratio figure of the output: (the line it is on, the ratio)."""
    out = []
    for raw in output.splitlines():
        line = " ".join(raw.split())
        for found in _RATIO.finditer(line):
            before = line[:found.start()]
            if re.search(r"(aim|<=|>=|<|>)\W*$", before):
                continue  # a target the script states, not a measurement
            if found.group(2) and before.count("(") > before.count(")"):
                continue  # "(games ratio 10)": the ratio expected, said in passing
            value = float(next(g for g in found.groups() if g))
            out.append((line, value))
    return out


def run(name: str) -> Run:
    script = BENCH / f"{name}.py"
    start = time.perf_counter()
    try:
        proc = subprocess.run([sys.executable, str(script)], cwd=REPO, capture_output=True,
                              text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
        status, output = proc.returncode, proc.stdout + (
            f"\n[stderr]\n{proc.stderr[-3000:]}" if proc.returncode and proc.stderr else "")
    except subprocess.TimeoutExpired as exc:
        status, output = -1, f"timed out after {TIMEOUT} s\n{exc.stdout or ''}"
    result = Run(name, status, time.perf_counter() - start, output)
    result.figures = figures(proc.stdout if status >= 0 else "") if status >= 0 else []
    return result


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def write(runs: list[Run], out: Path) -> None:
    info = machine()
    lines = ["# Benchmark results", "",
             "Written by `bench/report.py`: every benchmark script run once, one after "
             "another, on the machine below. Each figure is a ratio against a baseline "
             "the same script measured in the same run (see each script's docstring for "
             "what its baseline is), so figures from different machines compare.", "",
             "| machine | |", "|---|---|"]
    lines += [f"| {k} | {_cell(v)} |" for k, v in info.items()]
    lines += ["", "| script | figure (the script's own line) | ratio |", "|---|---|---:|"]
    for r in runs:
        if r.status != 0 and not r.figures:
            lines.append(f"| {r.name}.py | did not finish (exit {r.status}); see below | - |")
        for text, value in r.figures:
            lines.append(f"| {r.name}.py | {_cell(text)} | {value:g}x |")
    notes = _notes(out)
    if notes:
        lines += ["", notes.rstrip()]
    lines += ["", "## Runs", ""]
    for r in runs:
        lines += [f"### {r.name}.py (exit {r.status}, {r.seconds:.0f} s)", "", "```",
                  r.output.rstrip(), "```", ""]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


NOTES = "## Notes"


def _notes(path: Path) -> str:
    """The hand-written ``## Notes`` section of an earlier RESULTS.md (kept as it is:
    a before/after table, say), up to the runs."""
    if not path.exists():
        return ""
    text = path.read_text(encoding="utf-8")
    start = text.find(f"\n{NOTES}\n")
    if start < 0:
        return ""
    end = text.find("\n## Runs\n", start)
    return text[start + 1:end if end >= 0 else len(text)]


def reread(path: Path) -> list[Run]:
    """The runs recorded in an earlier RESULTS.md (to rebuild its table)."""
    text = path.read_text(encoding="utf-8")
    runs = []
    for found in re.finditer(r"### (\w+)\.py \(exit (-?\d+), (\d+) s\)\n\n```\n(.*?)\n```",
                             text, re.S):
        output = found.group(4)
        runs.append(Run(found.group(1), int(found.group(2)), float(found.group(3)), output,
                        figures(output.split("\n[stderr]\n")[0])))
    return runs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=BENCH / "RESULTS.md")
    ap.add_argument("--only", nargs="*", help="run only these scripts (names without .py)")
    ap.add_argument("--reread", action="store_true",
                    help="run nothing: rebuild the table from the outputs in --out")
    args = ap.parse_args()
    if args.reread:
        write(reread(args.out), args.out)
        print(f"rewrote {args.out}")
        return 0
    names = [n for n in ORDER if (BENCH / f"{n}.py").exists()]
    names += sorted(p.stem for p in BENCH.glob("*.py")
                    if p.stem not in ORDER and p.stem != "report" and not p.stem.startswith("_"))
    if args.only:
        names = [n for n in names if n in args.only]
    runs = reread(args.out) if args.only and args.out.exists() else []
    runs = [r for r in runs if r.name not in names]
    for name in names:
        print(f"running bench/{name}.py ...", flush=True)
        r = run(name)
        print(f"  exit {r.status} in {r.seconds:.0f} s, {len(r.figures)} figure(s)", flush=True)
        runs.append(r)
    runs.sort(key=lambda r: (ORDER + [r.name]).index(r.name))
    write(runs, args.out)
    print(f"wrote {args.out}")
    return 0 if all(r.status == 0 for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
