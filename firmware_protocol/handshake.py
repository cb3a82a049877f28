"""The version rules of the handshake, as the host applies them (SPEC.md, "Handshake")."""

from __future__ import annotations

from .constants import PRIVATE_HINTS_VERSION, PROTOCOL_VERSION, SHOW_VERSION
from .messages import Hello, Welcome


def compatible(theirs: tuple[int, int], ours: tuple[int, int] = PROTOCOL_VERSION) -> bool:
    """True if a peer speaking protocol `theirs` can talk to one speaking `ours`.

    Same major: compatible, whatever the minors (each side uses only what both know).
    Different major: not compatible; both sides refuse.
    """
    return theirs[0] == ours[0]


def supports_private_hints(theirs: tuple[int, int]) -> bool:
    """True if a controller whose Hello said protocol `theirs` understands Hint and
    ChoiceRefused (SPEC.md 11: a host never sends a message newer than the peer's minor)."""
    return theirs[0] == PRIVATE_HINTS_VERSION[0] and theirs[1] >= PRIVATE_HINTS_VERSION[1]


def supports_show(theirs: tuple[int, int]) -> bool:
    """True if a controller whose Hello said protocol `theirs` understands Show (1.2)."""
    return theirs[0] == SHOW_VERSION[0] and theirs[1] >= SHOW_VERSION[1]


def version_mismatch_text(theirs: tuple[int, int], ours: tuple[int, int]) -> str:
    """The clear message for a refused version (fits the 48-byte text limit)."""
    return f"protocol {theirs[0]}.{theirs[1]} unsupported; I speak {ours[0]}.{ours[1]}"


def host_welcome(hello: Hello, version: tuple[int, int] = PROTOCOL_VERSION) -> Welcome:
    """The Welcome a host speaking `version` sends in answer to `hello`.

    Accepted when the majors agree; otherwise refused with a reason naming both versions.
    (A host may also refuse for reasons of its own, e.g. a duplicate controller id, by sending
    `Welcome(major, minor, False, reason)` itself.)
    """
    theirs = (hello.protocol_major, hello.protocol_minor)
    if compatible(theirs, version):
        return Welcome(version[0], version[1], True, "")
    return Welcome(version[0], version[1], False, version_mismatch_text(theirs, version))
