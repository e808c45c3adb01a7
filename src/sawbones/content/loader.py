"""Load rule content: the built-in YAML files, then any content packs, validated strictly.

Every error names the file, the path inside it and what is wrong. A pack entry whose id exists
replaces the built-in one; new ids are added. Duplicate ids inside one layer are an error.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import re
from functools import lru_cache
from typing import Any, Iterable

from ..cache_files import cache_dir, write_pickle
from ..errors import ContentError
from ..message import Message, msg
from .checks import check_rules
from .models import Invalid, validate
from .rules import Rules
from .schema import SECTIONS, ContentFile

HERE = os.path.dirname(os.path.abspath(__file__))
BUILTIN_DIR = os.path.join(HERE, "data")  # paths as strings: reading cached rules imports no pathlib

@lru_cache(maxsize=1)
def _yaml_loader() -> Any:
    """A YAML loader with YAML 1.2 booleans: only true/false, so a key named `on` stays the string "on".

    Built on first use: a command whose content comes from the cache never imports PyYAML.
    """
    import yaml

    base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C loader is faster when libyaml is there

    class Loader(base):  # type: ignore[misc]
        pass

    Loader.yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    Loader.add_implicit_resolver(
        "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
    )
    return Loader


def _format_loc(raw: Any, loc: Iterable[Any]) -> str:
    """A readable path: list items are shown by their id when they have one."""
    out = ""
    node = raw
    for part in loc:
        if isinstance(part, int) and isinstance(node, list) and part < len(node):
            item = node[part]
            label = item.get("id") if isinstance(item, dict) and isinstance(item.get("id"), str) else None
            out += f"[{label}]" if label else f"[{part}]"
            node = item
        elif isinstance(part, int):
            out += f"[{part}]"
            node = None
        else:
            if isinstance(node, dict) and part not in node and "-" in str(part):
                # pydantic names union branches ("modifier", "function-after[...]"): skip them
                continue
            if isinstance(node, dict) and part not in node and part in _UNION_TAGS:
                continue
            out += f".{part}" if out else str(part)
            node = node.get(part) if isinstance(node, dict) else None
    return out


_UNION_TAGS = {
    "modifier", "advantage", "disadvantage", "auto_fail", "condition", "ability", "speed",
    "restriction", "carrying", "max_bonus", "trigger", "note", "lose_part", "int", "str",
}


def _describe(error: Any) -> str | Message:  # a pydantic ErrorDetails
    kind = error.get("type", "")
    if kind in ("extra_forbidden", "unexpected_keyword_argument"):  # a model's, a dataclass's
        return msg("unknown key")
    if kind == "missing":
        return msg("missing required key")
    if kind == "union_tag_invalid":
        ctx = error.get("ctx", {})
        return msg("unknown effect type {tag} (expected one of {expected})", tag=repr(ctx.get("tag")),
                   expected=ctx.get("expected_tags"))
    said = error.get("msg", "invalid")  # (pydantic's own words)
    if kind == "dataclass_type":  # said as pydantic says it of a model
        said = f"Input should be a valid dictionary or instance of {error.get('ctx', {}).get('class_name')}"
    if "input" in error and not isinstance(error["input"], (dict, list)):
        return f"{said} (got {error.get('input')!r})"
    return str(said)


def parse_file(path: str, label: str) -> ContentFile:
    """Read one YAML file into a ContentFile, or raise ContentError naming file and path."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise ContentError(msg("cannot read: {problem}", problem=str(exc)), label) from None
    import yaml

    try:
        raw = yaml.load(text, Loader=_yaml_loader())
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{label}:{mark.line + 1}:{mark.column + 1}" if mark else label
        raise ContentError(msg("not valid YAML: {problem}", problem=str(getattr(exc, "problem", exc))), where) from None
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ContentError(msg("a content file must be a mapping of sections, not {kind}", kind=type(raw).__name__),
                           label)
    try:
        return validate(ContentFile, raw)
    except Invalid as exc:
        first = exc.errors[0]
        said = _describe(first)
        if len(exc.errors) > 1:
            said = msg("{message} (and {n} more)", message=said, n=len(exc.errors) - 1)
        raise ContentError(said, f"{label}: {_format_loc(raw, first['loc'])}") from None


def _files(directory: str) -> list[str]:
    """The .yaml and .yml files under a folder, in the order of their paths' parts (symlinked folders not entered)."""
    found = [os.path.join(root, name) for root, _, names in os.walk(directory) for name in names
             if name.endswith((".yaml", ".yml")) and os.path.isfile(os.path.join(root, name))]
    return sorted(found, key=lambda path: os.path.relpath(path, directory).split(os.sep))


def _pack_label(prefix: str, relative: str) -> str:
    from pathlib import Path  # packs only: the built-in content's labels are its relative paths

    return str(Path(prefix) / relative)


def _merge_layer(
    layer: list[tuple[str, ContentFile]],
    sections: dict[str, dict[str, Any]],
    origins: dict[tuple[str, str], str],
) -> None:
    seen: dict[tuple[str, str], str] = {}
    for label, content in layer:
        for name in SECTIONS:
            for entry in getattr(content, name):
                key = (name, entry.id)
                if key in seen:
                    raise ContentError(msg("duplicate id {entry_id} in {section} (also in {other})",
                                           entry_id=repr(entry.id), section=name, other=seen[key]),
                                       f"{label}: {name}[{entry.id}]")
                seen[key] = label
                sections[name][entry.id] = entry
                origins[key] = label


def load_rules(packs: Iterable[str | os.PathLike[str]] = ()) -> Rules:
    """The built-in content plus packs, checked. Raises ContentError on the first problem."""
    given = tuple(packs)
    if given:
        from pathlib import Path

        names = tuple(str(Path(p)) for p in given)
    else:
        names = ()
    return _load(names, _signature(names))


def _signature(packs: tuple[str, ...]) -> tuple[Any, ...]:
    """Packs are files a GM edits: the cache key includes their files' sizes and times."""
    out = []
    for pack in packs:
        if os.path.isdir(pack):
            out += [(p, os.stat(p).st_mtime_ns, os.stat(p).st_size) for p in _files(pack)]
    return tuple(out)


@lru_cache(maxsize=8)
def _load(packs: tuple[str, ...], signature: tuple[Any, ...] = ()) -> Rules:
    layers = [(BUILTIN_DIR, "")] + [(p, p) for p in packs]
    files: list[tuple[str, str, str]] = []  # (pack prefix, label, path)
    digest = hashlib.sha256()
    for directory, prefix in layers:
        if not os.path.isdir(directory):
            raise ContentError(msg("content pack is not a directory"), directory)
        found = _files(directory)
        if prefix and not found:
            raise ContentError(msg("content pack has no .yaml files"), directory)
        for path in found:
            relative = os.path.relpath(path, directory)
            label = _pack_label(prefix, relative) if prefix else relative
            try:
                with open(path, "rb") as handle:
                    data = handle.read()
            except OSError as exc:  # a file the server may not read: named, as parse_file names it
                raise ContentError(msg("cannot read: {problem}", problem=str(exc)), label) from None
            digest.update(label.encode() + b"\0" + data)
            files.append((prefix, label, path))
    version = digest.hexdigest()[:16]
    cached = _read_cache(version)
    if cached is not None:
        return cached
    sections: dict[str, dict[str, Any]] = {name: {} for name in SECTIONS}
    origins: dict[tuple[str, str], str] = {}
    for _, prefix in layers:
        layer = [(label, parse_file(path, label)) for pfx, label, path in files if pfx == prefix]
        _merge_layer(layer, sections, origins)
    rules = Rules(sections, origins, version, packs)
    check_rules(rules)
    _write_cache(version, rules)
    return rules


# ---------------------------------------------------------------- a cache of checked content
# Validating every YAML file costs tens of milliseconds at each command; the checked Rules are
# pickled under the user's cache directory, keyed by the content's bytes and this code's own files.


def _cache_path(version: str) -> str | None:
    if os.environ.get("SAWBONES_NO_CONTENT_CACHE"):
        return None
    base = cache_dir()
    code = hashlib.sha256()
    for module in ("schema.py", "schema_base.py", "schema_effects.py", "models.py", "checks.py", "loader.py", "rules.py"):
        with open(os.path.join(HERE, module), "rb") as handle:
            code.update(handle.read())
    return os.path.join(base, f"rules-{version}-{code.hexdigest()[:12]}.pickle")


def _read_cache(version: str) -> Rules | None:
    path = _cache_path(version)
    if path is None or not os.path.isfile(path):
        return None
    try:
        with open(path, "rb") as handle:
            rules = pickle.load(handle)
        return rules if isinstance(rules, Rules) and rules.version == version else None
    except Exception:  # a stale or damaged cache is only a cache: rebuild it
        return None


def _write_cache(version: str, rules: Rules) -> None:
    path = _cache_path(version)
    if path is None:
        return
    write_pickle(path, rules)  # a read-only home: no cache, same rules

