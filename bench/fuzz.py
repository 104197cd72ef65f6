"""Longer fuzzing runs of every grammar and of the message reader (hypothesis).

The targets are those of the test suite (``tests/hardening/fuzzkit.py``); the
suite runs 150 examples of each, this script many more. For each target it
prints the examples run, examples per second, what kinds of result were seen,
and any failure found (with hypothesis's smallest falsifying example). The
ratio figure is the time per example of the target against a baseline
measured in the same run: hypothesis drawing the same inputs and doing nothing
with them (so the figure is what reading costs over generating the input).

Run: ``.venv/bin/python bench/fuzz.py [--examples 3000] [--seed 1]``
Exit status 1 when something was found.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "hardening"))

from fuzzkit import (
    RULESETS,
    body_lines,
    body_target,
    corpus_mails,
    envelope_target,
    line,
    mail_text,
    message_target,
    mutate,
    positions,
    raw_bytes,
)
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st


def run(name: str, strategy: Any, target: Callable[..., str], examples: int,
        rng_seed: int) -> tuple[float, collections.Counter[str], str | None]:
    """Run `target` on `examples` inputs drawn from `strategy` (a tuple strategy)."""
    seen: collections.Counter[str] = collections.Counter()

    @seed(rng_seed)
    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(args=strategy)
    def probe(args: tuple[Any, ...]) -> None:
        seen[target(*args)] += 1

    start = time.perf_counter()
    found = None
    try:
        probe()
    except Exception:  # noqa: BLE001 - a finding: report it
        found = traceback.format_exc(limit=4)
    return time.perf_counter() - start, seen, found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--examples", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    def noop(*_a: Any) -> str:
        return "drawn"

    def player_of(r: str) -> Any:
        return st.sampled_from(positions()[r][1])

    mails = corpus_mails()
    body_strategy = st.sampled_from(RULESETS).flatmap(
        lambda r: st.tuples(st.just(r), player_of(r), body_lines))
    mutated = st.tuples(st.integers(0, len(mails) - 1), st.integers(0, 2**32),
                        st.integers(1, 40))
    targets: list[tuple[str, Any, Callable[..., str]]] = [
        ("envelope", st.tuples(st.one_of(st.text(max_size=40), line), mail_text),
         envelope_target),
        ("bodies (4 rulesets)", body_strategy, body_target),
        ("read_message, any bytes", st.tuples(raw_bytes), message_target),
        ("read_message, mutated corpus", mutated,
         lambda i, s, n: message_target(mutate(mails[i], s, n))),
    ]
    print(f"fuzzing: {args.examples} examples per target, seed {args.seed}")
    problems = 0
    for name, strategy, target in targets:
        base_t, base_seen, _ = run(name, strategy, noop, args.examples, args.seed)
        t, seen, found = run(name, strategy, target, args.examples, args.seed)
        n = sum(seen.values())
        nb = sum(base_seen.values()) or 1
        per, per_base = t / max(n, 1), base_t / nb
        kinds = ", ".join(f"{k} {v}" for k, v in seen.most_common())
        print(f"{name}: {n} examples, {n / t:.0f}/s (baseline {nb / base_t:.0f}/s); "
              f"time per example {per / per_base:.1f}x the baseline; results: {kinds}")
        if found:
            problems += 1
            print(f"  FOUND in {name}:\n{found}")
    print(f"findings: {problems}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
