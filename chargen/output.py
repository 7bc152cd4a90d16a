"""Writing files safely: everything is produced first, then each file is written aside and renamed into
place, so a failure never leaves half a file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from chargen.errors import ChargenError


def write_atomic(path: Path, content: str | bytes) -> None:
    data = content.encode("utf-8") if isinstance(content, str) else content
    if path.exists() and not path.is_file():
        # /dev/null, /dev/stdout, a named pipe: renaming over them would replace the device with a file.
        _write_in_place(path, data)
        return
    directory = path.parent if str(path.parent) else Path(".")
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=directory)
    except OSError as error:
        raise ChargenError(f"{path}: cannot write ({error.strerror})") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual permissions
        os.replace(temporary, path)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise ChargenError(f"{path}: cannot write ({error.strerror})") from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _write_in_place(path: Path, data: bytes) -> None:
    try:
        with path.open("wb") as stream:
            stream.write(data)
    except OSError as error:
        raise ChargenError(f"{path}: cannot write ({error.strerror})") from None


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
