"""What the operating system or a library says (a file missing, a port taken, a file that is no database), in the
reader's language: their words come in English (`No such file or directory`, `Address already in use`, SQLite's
`file is not a database`); each known one is a message of the catalog, said wherever it appears in a line."""

from __future__ import annotations

import errno
import socket
from typing import Any

from ..message import N_
from .locale import _

BY_ERRNO = {  # an OSError's errno -> its words (as the C library writes them in English)
    errno.ENOENT: N_("No such file or directory"), errno.EACCES: N_("Permission denied"),
    errno.EPERM: N_("Operation not permitted"), errno.EEXIST: N_("File exists"),
    errno.EISDIR: N_("Is a directory"), errno.ENOTDIR: N_("Not a directory"),
    errno.ENOSPC: N_("No space left on device"), errno.EROFS: N_("Read-only file system"),
    errno.EADDRINUSE: N_("Address already in use"), errno.EADDRNOTAVAIL: N_("Cannot assign requested address"),
    errno.ECONNREFUSED: N_("Connection refused"), errno.ENOTEMPTY: N_("Directory not empty"),
}
BY_GAI = {  # a name lookup's error (socket.gaierror) -> its words
    socket.EAI_NONAME: N_("Name or service not known"),
    getattr(socket, "EAI_NODATA", -5): N_("No address associated with hostname"),
    socket.EAI_AGAIN: N_("Temporary failure in name resolution"),
}
PHRASES = (*BY_ERRNO.values(), *BY_GAI.values(),  # and the libraries' own, as they write them
           N_("file is not a database"), N_("database is locked"), N_("unable to open database file"),
           N_("database disk image is malformed"), N_("disk I/O error"), N_("Name or service not known"))


def reason(exc: BaseException) -> str:
    """An OSError's reason in the reader's language (its errno's words), else what it says."""
    if isinstance(exc, socket.gaierror) and exc.errno in BY_GAI:
        return _(BY_GAI[exc.errno])
    if isinstance(exc, OSError) and exc.errno in BY_ERRNO:
        return _(BY_ERRNO[exc.errno])
    return said_system(getattr(exc, "strerror", None) or str(exc))


def said_system(text: Any) -> str:
    """A line with the system's or a library's English words said in the reader's language (the rest unchanged)."""
    line: str = str(text)
    for phrase in PHRASES:
        if phrase in line:
            said: str = _(phrase)
            if said != phrase:
                line = line.replace(phrase, said)
    return line
