"""An uploaded BattleScribe or NewRecruit roster read safely: a ``.rosz`` (a zip holding one
``.ros``) or a ``.ros`` (XML), refused with a message saying what was wrong before anything
large or hostile is unpacked or parsed.

- The upload is at most 1 MB and its XML at most 5 MB. A zip's declared size is checked before
  it is opened, and the reading stops one byte past 5 MB whatever the zip's headers say.
- A zip must hold one file, a ``.ros`` (in a folder or not: nothing is written to disk).
- XML is parsed with defusedxml, which refuses a document type, entities and external
  references: a "billion laughs" or an external entity is refused, never expanded or fetched.
- The root must be a BattleScribe roster.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from engine.errors import MordheimError

MAX_ROSTER_UPLOAD = 1024 * 1024  # what Discord hands over: a .rosz, or a .ros
MAX_ROSTER_XML = 5 * 1024 * 1024  # the XML inside, unzipped
ROSTER_NAMESPACE = "http://www.battlescribe.net/schema/rosterSchema"
ROSTER_SUFFIXES = (".rosz", ".ros")
ZIP_MAGIC = b"PK\x03\x04"
HOW_TO_EXPORT = ("In BattleScribe or NewRecruit, save or export the roster as a .rosz (or .ros) file and attach "
                 "that file as it is.")


class RosterFileError(MordheimError):
    """The upload is no roster this bot can read; the message says why and how to fix it."""

    def __init__(self, message: str) -> None:
        super().__init__(message, hint=HOW_TO_EXPORT)


def is_roster_file(filename: str, head: bytes = b"") -> bool:
    """A BattleScribe or NewRecruit roster by its name (``.rosz``, ``.ros``) or, nameless, a zip's first bytes."""
    return filename.lower().endswith(ROSTER_SUFFIXES) or head.startswith(ZIP_MAGIC)


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MB"


def check_upload_size(size: int) -> None:
    """Refuse an upload over 1 MB before it is even read."""
    if size > MAX_ROSTER_UPLOAD:
        raise RosterFileError(f"The roster file is {_megabytes(size)}; the limit is 1 MB. It was not read.")


def roster_xml(data: bytes) -> bytes:
    """The XML text of an upload: unzipped from a ``.rosz``, or the ``.ros`` as it is."""
    check_upload_size(len(data))
    if not data.startswith(ZIP_MAGIC):
        if len(data) > MAX_ROSTER_XML:  # (only when the two limits change)
            raise RosterFileError(f"The roster is {_megabytes(len(data))} of XML; the limit is 5 MB. It was not read.")
        return data
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return _the_roster_inside(archive)
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError, NotImplementedError) as exc:
        raise RosterFileError(f"The .rosz file is a broken zip ({str(exc)[:80] or type(exc).__name__}); it was not read.") from None


def _the_roster_inside(archive: zipfile.ZipFile) -> bytes:
    files = [info for info in archive.infolist() if not info.is_dir()]
    if len(files) != 1:
        named = ", ".join(f"`{info.filename[:60]}`" for info in files[:5]) + (" ..." if len(files) > 5 else "")
        raise RosterFileError(f"The .rosz file holds {len(files)} files{': ' + named if files else ''}; "
                              "a roster file holds exactly one .ros. It was not read.")
    info = files[0]
    if not info.filename.lower().endswith(".ros"):
        raise RosterFileError(f"The .rosz file holds `{info.filename[:60]}`, not a .ros roster. It was not read.")
    if info.flag_bits & 0x1:
        raise RosterFileError("The .rosz file is encrypted; it was not read.")
    if info.file_size > MAX_ROSTER_XML:
        raise RosterFileError(f"The roster inside the .rosz is {_megabytes(info.file_size)} unzipped; the limit is 5 MB. "
                              "It was not unpacked.")
    with archive.open(info) as inside:
        xml = inside.read(MAX_ROSTER_XML + 1)  # the header may lie: never more than the limit and one byte
    if len(xml) > MAX_ROSTER_XML:
        raise RosterFileError("The roster inside the .rosz is larger unzipped than its zip says, and over 5 MB. "
                              "It was not read.")
    return xml


def parse_roster(data: bytes) -> Element:
    """The ``<roster>`` element of an upload (``.rosz`` or ``.ros``); RosterFileError for anything else."""
    xml = roster_xml(data)
    try:
        root = fromstring(xml, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException:
        raise RosterFileError("The roster's XML declares a document type or entities, which a BattleScribe roster never "
                              "does (it could be an XML bomb); it was not read.") from None
    except ParseError as exc:
        line, column = getattr(exc, "position", (0, 0))
        raise RosterFileError(f"The roster is not well-formed XML (line {line}, column {column}); it was not read.") from None
    if root.tag != f"{{{ROSTER_NAMESPACE}}}roster":
        raise RosterFileError("The file is XML but not a BattleScribe roster (its root is "
                              f"`{root.tag.rsplit('}', 1)[-1][:40]}`, not `roster`); it was not read.")
    return root
