"""Reading and writing YAML the safe way, with line numbers for errors.

- Only safe loading, with libyaml (``CSafeLoader``; ``CSafeDumper`` for writing).
- Duplicate keys in a mapping are an error (YAML itself lets the second win
  silently, which hides a game master's typo).
- A syntax error becomes a ``GameFileError`` with the file and line.
- ``YamlDoc.error(key_path, message)`` turns the key path of a bad value
  (``("aircraft", "baron", "damage")``) into the line of that value; the node
  tree is only built when an error needs a line, so reading stays fast.
- ``dump_yaml`` writes block style, short lists of plain values in flow style
  (``hexes: [J10, J9]``) and multi-line text as a literal block.
- What reading one file may cost is bounded (``LIMITS``, issue 40): a file too
  big, nested too deep, with too many values, or whose aliases would expand
  too far (a "billion laughs") is refused with the file and the line where it
  passes the bound, before any data is built of it: text with few values
  and no alias (nearly every file) is checked on its node tree, any other
  on the parser's events, stopped at that line. ruamel.yaml's round trip
  (``store.settings_file``, a restored backup's config) reads only text that
  passed here: ``load_round_trip``.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import yaml

from pbmref.base.errors import GameFileError, KeyPath

if TYPE_CHECKING:
    from ruamel.yaml import YAML

__all__ = [
    "LIMITS",
    "YamlDoc",
    "YamlLimits",
    "dump_yaml",
    "line_of",
    "load_round_trip",
    "load_text",
    "plain_copy",
    "read_text",
    "read_yaml",
    "remember_written",
    "stored_value",
    "stored_yaml",
]

T = TypeVar("T")

# libyaml's parser and emitter (PyYAML's wheels ship it): the one way, many times
# faster than the pure-Python ones
_BaseLoader: type[Any] = yaml.CSafeLoader
_BaseDumper: type[Any] = yaml.CSafeDumper


class _DuplicateKey(yaml.YAMLError):
    def __init__(self, key: Any, line: int) -> None:
        super().__init__(f"the key {key!r} appears twice in the same mapping")
        self.key = key
        self.line = line


def _plain_words(exc: yaml.YAMLError, text: str) -> tuple[str, int | None]:
    """A YAML error as (message, line) for a game master."""
    if isinstance(exc, _DuplicateKey):
        return str(exc), exc.line
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line = mark.line + 1 if mark is not None else None
    problem = str(getattr(exc, "problem", "") or exc).strip()
    context = str(getattr(exc, "context", "") or "").strip()
    if _tab_indented(text, line, problem):
        return "a tab character: indent with spaces only", line
    for said, words in _YAML_WORDS:
        if said in problem or (said == "expected <block end>" and said in context):
            return words, line
    words = f"{context}: {problem}" if context else problem
    return f"not valid YAML: {words}", line


# What the YAML parser says -> what a game master reads, first match wins.
_YAML_WORDS = (
    ("did not find expected ',' or ']'", "a list opened with '[' is not closed with ']'"),
    ("did not find expected ',' or '}'", "a mapping opened with '{' is not closed with '}'"),
    ("did not find expected key",
     "bad indentation: this line does not line up with the keys above it"),
    ("mapping values are not allowed",
     "a colon where none may be (bad indentation, or a value needs quotes)"),
    ("expected <block end>",
     "bad indentation: this line does not line up with the lines above it"),
    ("could not find expected ':'",
     "a key without a colon after it (or a line that is not indented enough)"),
)


def _tab_indented(text: str, line: int | None, problem: str) -> bool:
    """Is the line of the error indented with a tab (or a tab the cause)?"""
    lines = text.splitlines()
    if line is None or not 0 < line <= len(lines):
        return False
    this = lines[line - 1]
    return "\t" in this[: len(this) - len(this.lstrip())] or (
        "cannot start any token" in problem and "\t" in this)


@dataclass(frozen=True)
class YamlLimits:
    """The most one YAML file may hold: what a game master's file needs many
    times over (the biggest file a game writes holds a few thousand values;
    an orders file keeps one mail's text, ``limits.max_message_bytes``, at
    most four times as long once written as YAML), and far less than what
    hangs the referee."""

    max_bytes: int = 16 * 1024 * 1024
    max_depth: int = 40  # mappings and lists inside each other, aliases written out
    max_nodes: int = 100_000  # mappings, lists and plain values, aliases written out


LIMITS = YamlLimits()


class _Loader(_BaseLoader):  # type: ignore[misc]
    """Safe loader that refuses duplicate keys."""


def _construct_mapping(loader: Any, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    loader.flatten_mapping(node)
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        try:
            if key in seen:
                raise _DuplicateKey(key, key_node.start_mark.line + 1)
            seen.add(key)
        except TypeError:  # unhashable key: let the constructor report it
            pass
    result: dict[Any, Any] = yaml.SafeLoader.construct_mapping(loader, node, deep=deep)
    return result


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


class _TooCostly(Exception):
    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def _too_many(limits: YamlLimits, line: int, alias: bool = False) -> _TooCostly:
    also = ", each alias counted as the values it stands for" if alias else ""
    return _TooCostly(f"too many values: more than {limits.max_nodes} (mappings, lists and "
                      f"plain values{also})", line)


def _too_deep(limits: YamlLimits, line: int, alias: bool = False) -> _TooCostly:
    also = ", each alias counted as what it stands for" if alias else ""
    return _TooCostly(f"nested too deep (more than {limits.max_depth} mappings and lists "
                      f"inside each other{also})", line)


# A value of YAML takes at least one of these characters (its own, or the one
# after the key it is the value of), or is the document itself: three values
# a character (a key, its value and the mapping it opens) is more than any text
# holds, so text with few of them holds few values.
_MARKS = (",", ":", "-", "?", "[", "{", "\n")


def _few_values(text: str, limits: YamlLimits) -> bool:
    """Whether ``text`` surely holds no alias and no more than ``max_nodes``
    values (counted in C, far quicker than parsing)."""
    return "*" not in text and 3 * (sum(text.count(m) for m in _MARKS) + 1) <= limits.max_nodes


def _check_tree(root: yaml.Node, limits: YamlLimits) -> None:
    """The bounds on a node tree without aliases (each node in one place): how
    many values, how deep; the first node in the file's order that passes one
    is named. Costs a few percent of building the data."""
    values = 0
    stack: list[tuple[yaml.Node, int]] = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        values += 1
        if values > limits.max_nodes:
            raise _too_many(limits, node.start_mark.line + 1)
        if type(node) is yaml.ScalarNode:
            continue
        if depth > limits.max_depth:
            raise _too_deep(limits, node.start_mark.line + 1)
        if type(node) is yaml.MappingNode:
            for key, value in reversed(node.value):
                stack.append((value, depth + 1))
                stack.append((key, depth + 1))
        else:
            stack.extend((item, depth + 1) for item in reversed(node.value))


def _check_events(text: str, limits: YamlLimits) -> None:
    """The bounds on any text, read from the parser's events and stopped where
    one is passed (or where the parser meets a mistake: its own error).

    Every value is counted as often as it would be built if each alias were
    written out (an anchor's size and height are known when it closes), so
    nine lines of aliases that stand for a billion values stop at the alias
    that passes ``max_nodes``. An alias inside what its anchor names (a loop)
    is refused too: no reader of ours could write it out."""
    values = 0
    open_: list[tuple[str | None, int]] = []  # each open collection: (anchor, values before)
    heights = [0]  # the tallest child of each open collection (and of the document)
    anchors: dict[str, tuple[int, int]] = {}  # name -> (values, height) it stands for
    event: Any  # libyaml's events (the node events carry an anchor)
    for event in yaml.parse(text, Loader=_BaseLoader):
        kind = type(event)
        line = event.start_mark.line + 1
        if kind is yaml.SequenceStartEvent or kind is yaml.MappingStartEvent:
            values += 1
            if values > limits.max_nodes:
                raise _too_many(limits, line)
            if len(open_) >= limits.max_depth:
                raise _too_deep(limits, line)
            open_.append((event.anchor, values))
            heights.append(0)
        elif kind is yaml.SequenceEndEvent or kind is yaml.MappingEndEvent:
            anchor, before = open_.pop()
            height = heights.pop() + 1
            if anchor is not None:
                anchors[anchor] = (values - before + 1, height)
            heights[-1] = max(heights[-1], height)
        elif kind is yaml.AliasEvent:
            name = event.anchor
            if any(name == a for a, _ in open_):
                raise _TooCostly(f"the alias *{name} stands inside the &{name} it names "
                                 "(a loop)", line)
            size, height = anchors.get(name, (1, 0))  # unknown: the loader says so
            values += size
            if values > limits.max_nodes:
                raise _too_many(limits, line, alias=True)
            if len(open_) + height > limits.max_depth:
                raise _too_deep(limits, line, alias=True)
            heights[-1] = max(heights[-1], height)
        elif kind is yaml.ScalarEvent:
            values += 1
            if values > limits.max_nodes:
                raise _too_many(limits, line)
            if event.anchor is not None:
                anchors[event.anchor] = (1, 0)


class _CheckedLoader(_Loader):
    """The loader that checks the node tree (no aliases in it) against the
    bounds before building anything of it."""

    limits = LIMITS

    def get_single_data(self) -> Any:
        node = self.get_single_node()
        if node is None:
            return None
        _check_tree(node, self.limits)
        return self.construct_document(node)


def _too_big(limits: YamlLimits) -> str:
    return (f"the file is too big: more than {limits.max_bytes // (1024 * 1024)} MB "
            f"({limits.max_bytes} bytes)")


def _line_at(text: str, index: int) -> int:
    """The 1-based line of the character at ``index``."""
    return text.count("\n", 0, index) + 1


def load_text(text: str, file: Path | str, limits: YamlLimits = LIMITS) -> Any:
    """Parse YAML text within ``limits``; a syntax error, or text that passes a
    bound, becomes a GameFileError with the line."""
    if len(text) > limits.max_bytes:
        raise GameFileError(file, _too_big(limits), line=_line_at(text, limits.max_bytes))
    try:
        if _few_values(text, limits):  # nearly every file: checked on its node tree
            loader = _CheckedLoader(text)
            loader.limits = limits
        else:  # stopped where it passes a bound, before any node tree is made
            _check_events(text, limits)
            loader = _Loader(text)
        try:
            return loader.get_single_data()
        finally:
            loader.dispose()
    except _TooCostly as exc:
        raise GameFileError(file, exc.message, line=exc.line) from None
    except yaml.YAMLError as exc:
        message, line = _plain_words(exc, text)
        raise GameFileError(file, message, line=line) from None


def load_round_trip(yaml: YAML, text: str, file: Path | str) -> Any:
    """``text`` read by ruamel.yaml's round-trip loader ``yaml`` (comments, key
    order and layout kept for writing back), once it has passed our own checks
    (``load_text``: safe, no duplicate keys, within ``LIMITS``; ruamel.yaml has
    no bounds of its own). A file read by it is first read with ``read_text``."""
    load_text(text, file)
    return yaml.load(text)


def read_text(path: Path, limits: YamlLimits = LIMITS) -> str:
    """A YAML file's text (each line ending in ``\\n``); a file bigger than
    ``limits.max_bytes`` is refused before more of it is read (the line given:
    where it passes the bound). Errors are GameFileErrors naming the file."""
    try:
        with path.open("rb") as f:
            data = f.read(limits.max_bytes + 1)
        if len(data) > limits.max_bytes:
            raise GameFileError(path, _too_big(limits),
                                line=data.count(b"\n", 0, limits.max_bytes) + 1)
        text = data.decode("utf-8")
    except FileNotFoundError:
        raise GameFileError(path, "the file is missing") from None
    except UnicodeDecodeError as exc:
        raise GameFileError(path, f"not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise GameFileError(path, f"cannot be read: {exc.strerror}") from None
    # as a file opened for text reads it: every line ends in "\n"
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


@dataclass
class YamlDoc:
    """One YAML file read: its data, and lines on demand for error messages."""

    path: Path
    text: str
    data: Any
    _node: yaml.Node | None = field(default=None, repr=False)

    def node(self) -> yaml.Node | None:
        if self._node is None:
            try:
                self._node = yaml.compose(self.text, Loader=_BaseLoader)
            except yaml.YAMLError:
                return None
        return self._node

    def line(self, key_path: KeyPath) -> int | None:
        node = self.node()
        return _line_in(node, key_path) if node is not None else None

    def error(self, key_path: KeyPath, message: str, rule: str = "") -> GameFileError:
        return GameFileError(self.path, message, line=self.line(key_path), rule=rule,
                             key_path=key_path)

    def mapping(self, what: str = "a mapping of keys to values") -> dict[str, Any]:
        """The data as a mapping (an empty file is an empty mapping)."""
        if self.data is None:
            return {}
        if not isinstance(self.data, Mapping):
            raise GameFileError(self.path, f"expected {what} at the top of the file", line=1)
        return dict(self.data)


def read_yaml(path: Path | str) -> YamlDoc:
    """Read and parse one YAML file (safe loader); errors name file and line."""
    p = Path(path)
    text = read_text(p)
    return YamlDoc(p, text, load_text(text, p))


Stamp = tuple[int, int, int]


@dataclass
class _Stored:
    """One version of a stored file: its stamp, the parsed document, and the
    values worked out from it (``stored_value``)."""

    stamp: Stamp
    doc: YamlDoc
    values: dict[Hashable, Any] = field(default_factory=dict)


_STORED: OrderedDict[str, _Stored] = OrderedDict()
STORED_KEPT = 4096  # parsed files kept in memory, the least recently read dropped first


def plain_copy(value: Any) -> Any:
    """A deep copy of plain YAML data (mappings, lists and scalars); a plain value
    costs no call."""
    if isinstance(value, dict):
        return {k: plain_copy(v) if isinstance(v, _CONTAINERS) else v
                for k, v in value.items()}
    if isinstance(value, list):
        return [plain_copy(v) if isinstance(v, _CONTAINERS) else v for v in value]
    return value


_CONTAINERS = (dict, list)


def _stored(path: Path | str, stamp: Stamp | None = None) -> _Stored | None:
    """The cache's entry for ``path`` as the file is now (None: it cannot be
    stat-ed); ``stamp``: the file's as the caller just took it."""
    key = os.fspath(path)
    if stamp is None:
        try:
            st = os.stat(key)
        except OSError:
            return None
        stamp = (st.st_ino, st.st_mtime_ns, st.st_size)
    known = _STORED.get(key)
    if known is None or known.stamp != stamp:
        known = _STORED[key] = _Stored(stamp, read_yaml(Path(key)))
        if len(_STORED) > STORED_KEPT:
            _STORED.popitem(last=False)
    _STORED.move_to_end(key)
    return known


def remember_written(path: Path | str, text: str, data: Any,
                     values: Mapping[Hashable, object] | None = None) -> None:
    """Keep a file the referee has just written whole as the version on disk that
    ``stored_value`` and ``stored_yaml`` know: ``text`` is what was written,
    ``dump_yaml(data)``, so ``data`` is what parsing it gives and the referee
    does not parse its own writing back (issue 20). ``values``: what
    ``stored_value`` would work out from it under each key, worked out already
    by the writer from ``data`` (a position checked before it was written).
    The caller sees to it that nobody changes the file meanwhile (a new name,
    written under the game's lock); a file edited later is another version and
    read as usual."""
    key = os.fspath(path)
    try:
        st = os.stat(key)
    except OSError:
        return
    _STORED[key] = _Stored((st.st_ino, st.st_mtime_ns, st.st_size),
                           YamlDoc(Path(key), text, plain_copy(data)), dict(values or {}))
    if len(_STORED) > STORED_KEPT:
        _STORED.popitem(last=False)


def _copy(doc: YamlDoc) -> YamlDoc:
    return YamlDoc(doc.path, doc.text, plain_copy(doc.data), doc._node)


def stored_yaml(path: Path | str) -> YamlDoc:
    """``read_yaml`` for a file the referee writes whole (an orders file, a turn's
    position, ``game.yaml``, which it replaces): parsed once per version of the
    file (known by its inode, modification time and size), a copy of the data
    handed out each time. A file edited by hand is another version: read again."""
    p = path if isinstance(path, Path) else Path(path)
    known = _stored(p)
    if known is None:
        return read_yaml(p)  # missing or unreadable: the error it gives
    return _copy(known.doc)


def stored_value(path: Path | str, key: Hashable, work_out: Callable[[YamlDoc], T], *,
                 stamp: Stamp | None = None) -> T:
    """``work_out(doc)`` for a file the referee writes whole, done once per version
    of the file and ``key`` (which names what else the value depends on): the
    settings of a ``game.yaml``, the decoded position of a ``position.yaml``,
    the checked record of an orders file. The value is shared by every caller
    until the file changes, so it must not be changed (frozen, or copied by
    whoever changes it). A ``work_out`` that raises is tried again next time.
    A file edited by hand is another version: worked out again. ``stamp``: the
    file's inode, modification time and size as the caller took them just
    before (not stat-ed again; (0, 0, 0), a missing file, is stat-ed)."""
    known = _stored(path, stamp if stamp != (0, 0, 0) else None)
    if known is None:
        return work_out(read_yaml(path))  # missing or unreadable: the error it gives
    try:
        value: T = known.values[key]
    except KeyError:
        value = known.values[key] = work_out(_copy(known.doc))
    return value


def _key_matches(node: yaml.Node, key: str | int) -> bool:
    return isinstance(node, yaml.ScalarNode) and str(node.value) == str(key)


def _line_in(node: yaml.Node, key_path: KeyPath) -> int | None:
    """The 1-based line of the value at ``key_path`` (or of the deepest part found).

    For a mapping entry the line of its key is given (the value of a block
    mapping starts on the next line, the key is what the eye looks for).
    """
    line = node.start_mark.line + 1
    current = node
    for part in key_path:
        if isinstance(current, yaml.MappingNode):
            for key_node, value_node in current.value:
                if _key_matches(key_node, part):
                    line = key_node.start_mark.line + 1
                    current = value_node
                    break
            else:
                return line
        elif isinstance(current, yaml.SequenceNode) and isinstance(part, int):
            if 0 <= part < len(current.value):
                current = current.value[part]
                line = current.start_mark.line + 1
            else:
                return line
        else:
            return line
    return line


def line_of(path: Path | str, key_path: KeyPath) -> int | None:
    """The line of ``key_path`` in the YAML file ``path`` (None when not found)."""
    return read_yaml(path).line(key_path)


# ---------------------------------------------------------------- dumping


class _NotPlain(Exception):
    """Data the quick way below does not write: PyYAML's own way writes it."""


_STR, _INT, _BOOL, _NULL = ("tag:yaml.org,2002:" + t for t in ("str", "int", "bool", "null"))
_MAP, _SEQ = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"


class _Dumper(_BaseDumper):  # type: ignore[misc]
    def represent(self, data: Any) -> None:
        """PyYAML's ``represent``, with the node tree of plain data (dicts, lists,
        tuples, text, whole numbers, booleans, None: what the referee writes)
        built without PyYAML's bookkeeping of every value, the same nodes as the
        representers below make. Anything else, or a list or mapping met twice
        (PyYAML writes an alias), and the whole document goes PyYAML's way."""
        try:
            node = self._plain_node(data, set())
        except _NotPlain:
            node = self.represent_data(data)
        self.serialize(node)
        self.represented_objects: dict[int, yaml.Node] = {}
        self.object_keeper: list[Any] = []
        self.alias_key = None

    def _plain_node(self, data: Any, seen: set[int]) -> yaml.Node:
        kind = type(data)
        if kind is str:
            return yaml.ScalarNode(_STR, data, style="|" if "\n" in data else None)
        if kind is bool:
            return yaml.ScalarNode(_BOOL, "true" if data else "false")
        if kind is int:
            return yaml.ScalarNode(_INT, str(data))
        if data is None:
            return yaml.ScalarNode(_NULL, "null")
        if kind is dict or kind is list or kind is tuple:
            if data != ():  # PyYAML makes no alias of an empty tuple
                if id(data) in seen:
                    raise _NotPlain  # met twice: PyYAML writes an alias
                seen.add(id(data))
            if kind is dict:
                return yaml.MappingNode(_MAP, [(self._plain_node(k, seen),
                                                self._plain_node(v, seen))
                                               for k, v in data.items()], flow_style=False)
            return yaml.SequenceNode(_SEQ, [self._plain_node(v, seen) for v in data],
                                     flow_style=_short(data))
        raise _NotPlain


def _is_plain(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool)) or value is None


def _short(data: list[Any] | tuple[Any, ...]) -> bool:
    """A list written in flow style: a few plain values, none long or of lines."""
    return len(data) <= 12 and all(
        _is_plain(v) and not (isinstance(v, str) and ("\n" in v or len(v) > 40)) for v in data)


def _represent_list(dumper: Any, data: list[Any]) -> yaml.Node:
    node: yaml.Node = dumper.represent_sequence("tag:yaml.org,2002:seq", data,
                                                flow_style=_short(data))
    return node


def _represent_str(dumper: Any, data: str) -> yaml.Node:
    if "\n" in data:
        node: yaml.Node = dumper.represent_scalar("tag:yaml.org,2002:str", data, style="|")
        return node
    node = dumper.represent_scalar("tag:yaml.org,2002:str", data)
    return node


def _represent_tuple(dumper: Any, data: tuple[Any, ...]) -> yaml.Node:
    return _represent_list(dumper, list(data))


_Dumper.add_representer(list, _represent_list)
_Dumper.add_representer(tuple, _represent_tuple)
_Dumper.add_representer(str, _represent_str)


def dump_yaml(data: Any, *, header: str = "") -> str:
    """The data as YAML text (keys in the given order), with an optional comment header."""
    text: str = yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                          default_flow_style=False, width=100)
    if header:
        lines = "".join(f"# {h}\n" if h else "#\n" for h in header.splitlines())
        text = lines + text
    return text
