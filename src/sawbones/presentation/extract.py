"""Babel's extraction of sawbones' Python messages, read from the syntax tree (babel.cfg names it).

Babel's own Python extractor does not look inside a call it is already reading: in
`msg("… {fix}", fix=PerAudience(cli=msg("say --rolls gm"), api=msg("give rolls, gm or players")))` it finds
the outer template and misses the inner ones. This one walks every call of the tree, nested or not, whose
function (a name, or an attribute: `locale._`) is a keyword of the extraction, and gives Babel its positional
arguments (a string literal, else None), which Babel then reads with the keyword's spec (`msgs:1,2`,
`pmsg:1c,2`), as it does for its own extractor.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any


def python_calls(fileobj: IO[bytes], keywords: Mapping[str, Any] | Collection[str], comment_tags: Collection[str],
                 options: Mapping[str, Any]) -> Iterator[tuple[int, str, tuple[str | None, ...], list[str]]]:
    source = fileobj.read().decode(str(options.get("encoding", "utf-8")))
    calls = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name not in keywords:
            continue
        arguments = tuple(arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else None
                          for arg in node.args)
        calls.append((node.lineno, node.col_offset, name, arguments))
    for lineno, _, name, arguments in sorted(calls):
        yield lineno, name, arguments, []
