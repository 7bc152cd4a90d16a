"""The page's bounds on what a request may ask: how many form fields (whatever the form's encoding), each
repeated field's values read once, and the Host names the page answers to (a page of another site whose
name is made to point at this machine, DNS rebinding, is refused whatever address --host gave)."""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass

from flask import Request

#: Fields a form may send, in either encoding: the page's largest form (the GM's) has about 15; Werkzeug
#: bounds a multipart form's parts with it (MAX_FORM_PARTS), and `too_many_fields` an urlencoded one's.
MAX_FORM_FIELDS = 64
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
#: Addresses meaning "every address of this machine".
EVERY_ADDRESS = ("0.0.0.0", "::", "")


def too_many_fields(request: Request) -> bool:
    """Whether an urlencoded body holds more than MAX_FORM_FIELDS fields, counted by their separators
    before anything is parsed (a 1 MB body of 47,000 fields is refused at once, not read into a form)."""
    if request.mimetype != "application/x-www-form-urlencoded":
        return False  # multipart: Werkzeug counts the parts (MAX_FORM_PARTS); others are not forms
    return request.get_data(cache=True).count(b"&") >= MAX_FORM_FIELDS


def choices(request: Request, name: str) -> list[str]:
    """The values of a field a form may repeat (checkboxes), each once, in the order first sent."""
    return list(dict.fromkeys(request.form.getlist(name)))


@dataclass(frozen=True)
class HostCheck:
    """The Host headers the page answers: the address it listens on and, for a loopback address, the
    loopback names; listening on every address, this machine's own names and any address typed as numbers.
    A name someone else's DNS gives is never among them."""

    names: frozenset[str]
    port: int
    any_address: bool = False

    def allows(self, header: str) -> bool:
        name, port = _split(header.lower())
        if port != self.port and not (port is None and self.port == 80):
            return False
        return name in self.names or (self.any_address and _is_address(name))


def host_check(host: str, port: int) -> HostCheck:
    """The Host check for a server listening on `host`:`port`."""
    every = host in EVERY_ADDRESS
    names = {_bracketed(host.lower())} if not every else set()
    if every or _loopback(host):
        names.update(LOOPBACK_NAMES)
    if every:
        names.update(name.lower() for name in (socket.gethostname(), socket.getfqdn()) if name)
    return HostCheck(frozenset(names), port, any_address=every)


def _loopback(host: str) -> bool:
    """Whether only this computer can reach `host` (localhost, 127.0.0.0/8, ::1)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return name.startswith("[") or ":" not in name


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def _split(header: str) -> tuple[str, int | None]:
    """(name, port) of a Host header: `localhost:8000`, `[::1]:8000`, `example` (port None)."""
    if header.startswith("["):
        name, _, rest = header.partition("]")
        name, port = name + "]", rest.removeprefix(":")
    else:
        name, _, port = header.partition(":")
    if not port:
        return name, None
    return name, int(port) if port.isascii() and port.isdigit() and len(port) <= 5 else -1
