"""The house's own figures (issue 14): what one accepted order mail costs in
position decodes and YAML reads, and how the seams between the layers look.

Run: ``.venv/bin/python bench/house.py`` (``--check``: only the complexity
bounds, failing above them; ``scripts/test`` runs that). It plays one order
mail through the Maildir pipeline (a second mail of the same player, after a
first that pays for the password check) and counts, while that mail is handled:

- position decodes (the ruleset's ``decode``) and YAML files read;
- stored orders entries decoded by the ruleset (``decode_orders``).

It also counts, in ``src/pbmref``: places outside ``rules/`` and
``rulesets/`` that branch on a ruleset's name, ``import_module`` of our own
code. These are counts, not timings; the figures of the closing note
come from here.

The house's shape (issue 41), also counts:

- the seam's untyped values: annotations ``dict[str, Any]`` and
  ``Mapping[str, Any]`` (``MutableMapping`` too) in ``src/``, each alias of
  one (``Event = dict[str, Any]``) counted where it is used (aim <= 60);
- per-game code outside ``rules/`` and ``rulesets/``: the lines of modules
  that import a game kind's rules (``pbmref.rules.tweedekker`` ...) or are
  named after one, outside those two folders, and their share;
- the pbmref modules a fresh process loads for ``import pbmref.store`` (aim
  <= 40), ``pbmref.orders`` and ``pbmref.rules``, of all there are;
- functions above cyclomatic complexity 15 per 1,000 lines (ruff's C901;
  aim <= 1.2) and the worst (aim <= 20); the longest class in ``referee/``
  (aim <= 400 lines);
- the functions of ours (and their files) that one accepted order mail and
  one two-player deadline run, traced with ``sys.setprofile``; and in the
  same traces, how often the mail is parsed by email's parser (and for whom:
  the spool's keys, the reading, a reply read back), its spool entry read,
  the game opened, its position decoded and its schedule written.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "pbmref"
sys.path.insert(0, str(ROOT / "src"))

from pbmref import gm  # noqa: E402
from pbmref.base import yamlfile  # noqa: E402
from pbmref.config import Config  # noqa: E402
from pbmref.mail.maildir_in import MaildirIntake  # noqa: E402
from pbmref.mail.outbox import read_maildir  # noqa: E402
from pbmref.referee.pipeline import Referee  # noqa: E402
from pbmref.referee.turns import adjudicate_due  # noqa: E402
from pbmref.rulesets.tweedekker.ruleset import TweedekkerRuleset  # noqa: E402
from pbmref.store import GameStore  # noqa: E402


def one_mail(trace: list[tuple[int, int]] | None = None) -> Counter[str]:
    """Counts while one accepted order mail is handled end to end (with
    ``trace``: the functions it runs are traced instead, and then one deadline
    of the game, and both put in ``trace``)."""
    tmp = Path(tempfile.mkdtemp(prefix="pbmref-house-"))
    from datetime import UTC, datetime

    t0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    config = Config.local(tmp, "referee@test.invalid")
    store = GameStore(config.games_dir)
    created = gm.new_game(store, "zep1", [
        gm.PlayerSpec("anna", ("anna@example.org",), "Anna", airfield="N"),
        gm.PlayerSpec("bert", ("bert@example.org",), "Bert", airfield="SE")],
        seed=11, deadline=t0 + timedelta(hours=48), early_adjudication=False, now=t0)
    referee = Referee(config, store=store, clock=lambda: t0)
    intake = MaildirIntake(config.mail.maildir.inbox)

    def send(last: str, traced_by: Callable[[Callable[[], object]], object] | None = None
             ) -> None:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = "anna@example.org", "referee@x", "orders"
        msg["Date"], msg["Message-ID"] = format_datetime(t0), make_msgid(domain="example.org")
        msg.set_content(f"GAME zep1\nPASSWORD {created.passwords['anna']}\n"
                        f"TAKEOFF ALPHA\nPLANE\n1: A\n2: A\n3: {last}\nEND\n")
        key = intake.deliver(msg.as_bytes())
        os.utime(intake.root / "new" / key, (t0.timestamp(), t0.timestamp()))  # arrival time
        def answer() -> None:
            referee.take_in(intake)
            referee.deliver(force=True)

        if traced_by is None:
            answer()
        else:
            traced_by(answer)  # the referee's work alone, not the reading below
        reply = read_maildir(tmp / "outbox")[-1].get_body(("plain",))
        assert reply is not None and "accepted" in str(reply.get_content()), reply

    send("A")  # the first mail pays for the password check
    counts: Counter[str] = Counter()
    if trace is not None:
        send("L", lambda answer: trace.append(traced(answer)))
        later = t0 + timedelta(hours=49)
        referee.clock = lambda: later
        trace.append(traced(lambda: adjudicate_due(referee)))
        return counts
    read_yaml, decode, check = (yamlfile.read_yaml, TweedekkerRuleset.decode,
                                TweedekkerRuleset.decode_orders)

    def counting(name: str, fn):  # type: ignore[no-untyped-def]
        def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
            counts[name] += 1
            return fn(*args, **kwargs)
        return wrapper

    modules = [m for m in sys.modules.values()
               if getattr(m, "__name__", "").startswith("pbmref.")
               and getattr(m, "read_yaml", None) is read_yaml]
    for m in modules:
        m.read_yaml = counting("YAML files read", read_yaml)  # type: ignore[attr-defined]
    TweedekkerRuleset.decode = counting("position decodes", decode)  # type: ignore[method-assign]
    TweedekkerRuleset.decode_orders = counting(  # type: ignore[method-assign]
        "stored orders decoded", check)
    try:
        send("L")
    finally:
        for m in modules:
            m.read_yaml = read_yaml  # type: ignore[attr-defined]
        TweedekkerRuleset.decode = decode  # type: ignore[method-assign]
        TweedekkerRuleset.decode_orders = check  # type: ignore[method-assign]
    return counts


def traces() -> tuple[tuple[int, int], tuple[int, int]]:
    """(functions, files) for one accepted order mail and one deadline."""
    trace: list[tuple[int, int]] = []
    one_mail(trace)
    return trace[0], trace[1]


def seams() -> dict[str, int]:
    branch = re.compile(r"ruleset *(==|!=| in )")
    hidden = re.compile(r"import_module\(f?[\"']pbmref")
    out = {"ruleset-name branches outside rules/ and rulesets/": 0,
           "import_module of our own code": 0}
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC).as_posix()
        text = path.read_text(encoding="utf-8")
        if not rel.startswith(("rules/", "rulesets/")):
            out["ruleset-name branches outside rules/ and rulesets/"] += len(
                branch.findall(text))
        out["import_module of our own code"] += len(hidden.findall(text))
    return out


_KINDS = ("tweedekker", "fastplay", "diplomacy")
_UNTYPED = {"dict", "Dict", "Mapping", "MutableMapping"}


def _is_untyped(node: ast.AST) -> bool:
    """``dict[str, Any]`` and its kin."""
    if not isinstance(node, ast.Subscript):
        return False
    head = node.value.attr if isinstance(node.value, ast.Attribute) else getattr(
        node.value, "id", "")
    args = node.slice.elts if isinstance(node.slice, ast.Tuple) else []
    return (head in _UNTYPED and len(args) == 2
            and [getattr(a, "id", None) for a in args] == ["str", "Any"])


def _annotations(tree: ast.AST) -> list[ast.AST]:
    out: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            every = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs,
                     *(a for a in (node.args.vararg, node.args.kwarg) if a)]
            out += [a.annotation for a in every if a.annotation is not None]
            if node.returns is not None:
                out.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            out.append(node.annotation)
    return out


def _module(path: Path) -> str:
    """``pbmref.rulesets.tweedekker.picture`` for ``src/pbmref/rulesets/tweedekker/picture.py``."""
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _aliases_in_scope(path: Path, tree: ast.AST, defined: dict[str, set[str]]) -> set[str]:
    """The aliases of ``dict[str, Any]`` a module may name: its own, and those it
    imports from the module that defines them (another module's typed ``Event``
    is not the ``Event = dict[str, Any]`` of a third)."""
    module = _module(path)
    names = set(defined.get(module, ()))
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            source = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:
                if alias.name in defined.get(source, ()):
                    names.add(alias.asname or alias.name)
    return names


def untyped_values() -> dict[str, int]:
    """The seam's ``dict[str, Any]`` annotations, written out and through aliases
    (an alias counted where the module that uses it has it in scope)."""
    trees = {p: ast.parse(p.read_text(encoding="utf-8")) for p in SRC.rglob("*.py")}
    defined: dict[str, set[str]] = {}
    for path, tree in trees.items():
        for node in tree.body:
            if isinstance(node, ast.Assign) and _is_untyped(node.value):
                defined.setdefault(_module(path), set()).update(
                    t.id for t in node.targets if isinstance(t, ast.Name))
            elif isinstance(node, ast.AnnAssign) and node.value is not None \
                    and _is_untyped(node.value) and isinstance(node.target, ast.Name):
                defined.setdefault(_module(path), set()).add(node.target.id)
    written = through = 0
    by_folder: Counter[str] = Counter()
    for path, tree in trees.items():
        aliases = _aliases_in_scope(path, tree, defined)
        for annotation in _annotations(tree):
            for node in ast.walk(annotation):
                n = _is_untyped(node)
                m = isinstance(node, ast.Name) and node.id in aliases
                written += n
                through += m
                if n or m:
                    by_folder[path.relative_to(SRC).parts[0].removesuffix(".py")] += 1
    out = {"dict[str, Any] annotations in src/ (aim <= 60)": written + through,
           "  of which written out": written, "  of which through aliases": through}
    out |= {f"  in {folder}/": n for folder, n in by_folder.most_common()}
    return out


def _imports(path: Path, tree: ast.AST, modules: set[str]) -> set[str]:
    """The pbmref modules a module imports, at its top or inside a function
    (``from pbmref.rulesets.diplomacy import board`` imports ``...board``)."""
    module = _module(path)
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in modules}
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            source = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:
                whole = f"{source}.{alias.name}"
                out.add(whole if whole in modules else source)
    return out & modules - {module}


def _kind_of_place(module: str) -> str | None:
    """The game kind a module's place or name gives it: ``pbmref.rules.diplomacy.map``,
    ``pbmref.rulesets.air.svgkit`` (air: what tweedekker and Fast Play share),
    ``pbmref.reports.fastplay_svg``; None for shared machinery."""
    parts = module.split(".")[1:]
    if len(parts) >= 2 and parts[0] in ("rules", "rulesets") and parts[1] in _KINDS + ("air",):
        return parts[1]
    return next((k for k in _KINDS if any(k in p for p in parts)), None)


def _family(kinds: set[str]) -> str | None:
    """One game kind, or ``air`` for the two air games; None when the kinds differ
    (code every game kind uses is shared, not per-game)."""
    if len(kinds) == 1:
        return next(iter(kinds))
    return "air" if kinds and kinds <= {"tweedekker", "fastplay", "air"} else None


def per_game_modules() -> dict[str, tuple[str, int]]:
    """Each per-game module: its game kind (``air``: both air games; ``mixed``:
    several kinds' code in one shared module) and its lines.

    A module is per-game when its place or name says so (``rules/<kind>/``,
    ``rulesets/<kind>/``, ``reports/fastplay_svg.py``), when it imports a game
    kind's own module, or when only per-game modules of one game kind (or of
    the two air games) import it, such as a report's helper module that
    nothing shared uses. Code every game kind uses (``reports/common.py``,
    ``rulesets/base.py``) is shared.
    """
    paths = {_module(p): p for p in SRC.rglob("*.py")}
    trees = {m: ast.parse(p.read_text(encoding="utf-8")) for m, p in paths.items()}
    imports = {m: _imports(paths[m], trees[m], set(paths)) for m in paths}
    kind: dict[str, str] = {}
    for m in paths:
        own = _kind_of_place(m)
        used = {k for i in imports[m] if (k := _kind_of_place(i)) and
                i.split(".")[1] in ("rules", "rulesets")}
        if own:
            kind[m] = own
        elif used:
            kind[m] = _family(used) or "mixed"
    importers: dict[str, set[str]] = {m: set() for m in paths}
    for m, deps in imports.items():
        for d in deps:
            importers[d].add(m)
    changed = True
    while changed:  # only one game kind's modules use it: it is that kind's code
        changed = False
        for m in paths:
            users = importers[m]
            if m in kind or not users or not users <= set(kind):
                continue
            family = _family({kind[u] for u in users})
            if family:
                kind[m] = family
                changed = True
    return {m: (k, len(paths[m].read_text(encoding="utf-8").splitlines()))
            for m, k in sorted(kind.items())}


def _outside(module: str) -> bool:
    return module.split(".")[1] not in ("rules", "rulesets")


def per_game_code() -> dict[str, int]:
    """Lines of per-game modules inside and outside rules/ and rulesets/."""
    modules = per_game_modules()
    outside = sum(n for m, (_, n) in modules.items() if _outside(m))
    inside = sum(n for m, (_, n) in modules.items() if not _outside(m))
    return {"per-game lines outside rules/ and rulesets/": outside,
            "per-game lines inside them": inside,
            "per-game share outside, percent": round(100 * outside / max(1, inside + outside))}


def modules_loaded() -> dict[str, int]:
    """pbmref modules a fresh process loads to import each lower layer."""
    out = {"pbmref modules in all": sum(1 for _ in SRC.rglob("*.py"))}
    for layer in ("pbmref.rules", "pbmref.orders", "pbmref.rulesets", "pbmref.store"):
        code = (f"import sys, {layer}; "
                "print(sum(1 for m in sys.modules if m.split('.')[0] == 'pbmref'))")
        n = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
        out[f"modules loaded by import {layer}" + (" (aim <= 40)" if layer.endswith("store")
                                                   else "")] = int(n.stdout)
    return out


def complexity() -> dict[str, float]:
    """Functions above cyclomatic complexity 15 (radon's measure), per 1,000 lines."""
    run = subprocess.run([sys.executable, "-m", "radon", "cc", "--json", str(SRC)],
                         capture_output=True, text=True, check=True)
    found: dict[tuple[str, int], int] = {}

    def walk(path: str, blocks: list[dict[str, object]]) -> None:
        for block in blocks:
            if block["type"] in ("function", "method"):
                found[(path, int(block["lineno"]))] = int(block["complexity"])  # type: ignore[call-overload]
            walk(path, block.get("closures", []))  # type: ignore[arg-type]
            walk(path, block.get("methods", []))  # type: ignore[arg-type]

    for path, blocks in json.loads(run.stdout).items():
        walk(path, blocks)
    over = [n for n in found.values() if n > 15]
    lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in SRC.rglob("*.py"))
    longest = max((node.end_lineno - node.lineno + 1, node.name)  # type: ignore[operator]
                  for p in (SRC / "referee").glob("*.py")
                  for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
                  if isinstance(node, ast.ClassDef))
    return {"lines in src/": lines, "functions above complexity 15 (radon)": len(over),
            "  per 1,000 lines (aim <= 1.2)": round(1000 * len(over) / lines, 2),
            "  above 20 (aim 0)": sum(1 for n in over if n > 20),
            "  the worst": max(over, default=0),
            f"longest class in referee/ ({longest[1]}), lines (aim <= 400)": longest[0]}


# Work counted while a mail or a deadline is traced: (file's ending, function) ->
# what one call of it is. A parse by email's parser ends in FeedParser.close
# (headers alone or the whole mail, ours or a reply read back), named by the
# function of ours that asked for it.
WATCHED = {
    ("email/feedparser.py", "FeedParser.close"): "mails parsed by email's parser",
    ("pbmref/mail/spool/entries.py", "_read_in"): "incoming spool entry read",
    ("pbmref/store/game.py", "Game.__init__"): "game opened",
    ("pbmref/rulesets/tweedekker/ruleset.py", "TweedekkerRuleset.decode"): "position decoded",
    ("pbmref/store/game.py", "Game.write_schedule"): "schedule written",
}
WORK: list[Counter[str]] = []  # what each traced action did, in turn


def traced(action: Callable[[], object]) -> tuple[int, int]:
    """The functions of ours, and their files, that ``action`` runs (and the
    work of ``WATCHED`` it does, in ``WORK``)."""
    seen: set[tuple[str, int, str]] = set()
    src = str(SRC)
    work: Counter[str] = Counter()

    def ours(frame: FrameType | None) -> str:
        while frame is not None and not frame.f_code.co_filename.startswith(src):
            frame = frame.f_back
        return frame.f_code.co_name if frame is not None else "?"

    def profile(frame: FrameType, event: str, arg: object) -> None:
        del arg
        if event != "call":
            return
        code = frame.f_code
        if code.co_filename.startswith(src):
            seen.add((code.co_filename, code.co_firstlineno, code.co_name))
        for (ending, name), what in WATCHED.items():
            if name in (code.co_name, code.co_qualname) and code.co_filename.endswith(ending):
                if code.co_filename.endswith(".py") and "email" in ending:
                    what = f"{what} (for {ours(frame.f_back)})"
                work[what] += 1

    sys.setprofile(profile)
    try:
        action()
    finally:
        sys.setprofile(None)
    WORK.append(work)
    return len(seen), len({f for f, _, _ in seen})


def check() -> int:
    """The gate of ``scripts/test``: functions above complexity 15 at most 1.2 per
    1,000 lines, none above 20 (issue 41); 1 when a bound is passed."""
    figures = complexity()
    per_1000 = figures["  per 1,000 lines (aim <= 1.2)"]
    above_20 = figures["  above 20 (aim 0)"]
    print(f"complexity: {figures['functions above complexity 15 (radon)']:.0f} functions "
          f"above 15 ({per_1000} per 1,000 lines, at most 1.2), {above_20:.0f} above 20 "
          f"(none allowed), the worst {figures['  the worst']:.0f}")
    if per_1000 > 1.2 or above_20 > 0:
        print("complexity: above the bound; `python -m radon cc -s -n C src/pbmref` lists "
              "the candidates (split the worst into well-named helpers)")
        return 1
    return 0


def main() -> int:
    if sys.argv[1:] == ["--check"]:
        return check()
    if sys.argv[1:] == ["--per-game"]:
        for module, (kind, lines) in per_game_modules().items():
            if _outside(module):
                print(f"{lines:6} {kind:10} {module}")
        return 0
    for name, n in sorted(one_mail().items()):
        print(f"one accepted order mail: {name}: {n}")
    for name, n in seams().items():
        print(f"{name}: {n}")
    for figures in (untyped_values(), per_game_code(), modules_loaded(), complexity()):
        for name, value in figures.items():
            print(f"{name}: {value}")
    mail, deadline = traces()
    print(f"one accepted order mail runs {mail[0]} functions of ours in {mail[1]} files")
    print(f"one two-player deadline runs {deadline[0]} functions of ours in "
          f"{deadline[1]} files")
    for label, work in zip(("one accepted order mail", "one two-player deadline"), WORK,
                           strict=True):
        # every watched piece of work, none done included: a watch that names a
        # function no longer there must show as 0, not vanish from the list
        done = {what: n for what, n in work.items()}
        for what in WATCHED.values():
            if not any(key.startswith(what) for key in done):
                done[what] = 0
        for what, n in sorted(done.items()):
            print(f"{label}: {what}: {n}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
