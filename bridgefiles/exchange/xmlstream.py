"""A small, safe, streaming XML reader for the exchange formats (USEBIO).

Built on the standard library's expat (``xml.parsers.expat``) rather than
``xml.etree``'s parser because it lets us refuse what a hostile upload uses: any
entity declaration (the "billion laughs" and external-entity attacks need one) is
an error, parameter entities and external DTDs are never loaded, and no network or
file is touched. Elements are handed over as they close, a chosen few at a time
(``BOARD``, ``PAIR``...), and dropped from their parent, so memory holds one of them
and the small header elements, not the document.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from xml.parsers import expat


@dataclass
class Node:
    """An element: its tag, attributes, text, children and the line it starts on."""

    tag: str
    attrs: dict[str, str]
    line: int
    children: list[Node] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)
    size: int = 0  # characters in parts

    @property
    def text(self) -> str:
        return "".join(self.parts).strip()

    def child(self, tag: str) -> Node | None:
        for c in self.children:
            if c.tag == tag:
                return c
        return None

    def value(self, tag: str) -> str | None:
        """The text of the first child called ``tag``, None when there is none."""
        c = self.child(tag)
        return c.text if c is not None else None

    def all(self, tag: str) -> list[Node]:
        return [c for c in self.children if c.tag == tag]


class XMLProblem(Exception):
    """Text that is not well-formed XML, or XML we refuse; ``line``/``column`` 1-based.
    ``limit`` names the Limits setting a document went over (then it is a ``limit``
    finding, not a ``syntax`` one)."""

    def __init__(self, message: str, line: int | None, column: int | None,
                 limit: tuple[str, int] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.limit = limit


@dataclass
class Closed:
    """An element handed over as it closed, with the open elements around it (outermost
    first: their children read so far, never the handed-over ones)."""

    node: Node
    around: tuple[Node, ...]


def stream_elements(lines: Iterable[str], wanted: frozenset[str], *, max_text: int | None = None,
                    max_children: int | None = None,
                    seen: Callable[[str, int], None] | None = None) -> Iterator[Closed]:
    """The ``wanted`` elements of the document in ``lines``, as each closes: a tag
    (``BOARD``) or a parent and a tag (``PARTICIPANTS/PAIR``).

    Raises :class:`XMLProblem` for text that is not XML, a DOCTYPE that declares
    entities, or a reference to an entity that is not one of XML's own five; and for
    an element with more than ``max_text`` characters of text or more than
    ``max_children`` children kept (those not handed over), so memory stays bounded.
    ``seen`` is told each element's tag and line as it opens.
    """
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    stack: list[Node] = []
    done: list[Closed] = []
    seen_root = False

    def refuse(*_: object) -> None:
        raise XMLProblem("the document declares an entity; refused (hostile XML)",
                         parser.CurrentLineNumber, parser.CurrentColumnNumber + 1)

    def over(name: str, limit: int, what: str) -> XMLProblem:
        return XMLProblem(f"{what} goes over the limit {name}={limit:,}; the document is "
                          f"not read (raise it with Limits({name}=...))",
                          parser.CurrentLineNumber, parser.CurrentColumnNumber + 1,
                          (name, limit))

    def start(tag: str, attrs: dict[str, str]) -> None:
        nonlocal seen_root
        seen_root = True
        node = Node(tag, attrs, parser.CurrentLineNumber)
        if seen is not None:
            seen(tag, node.line)
        if stack:
            kept = stack[-1].children
            if max_children is not None and len(kept) >= max_children:
                raise over("max_tags_per_game", max_children, f"the elements in <{stack[-1].tag}>")
            kept.append(node)
        stack.append(node)

    def end(tag: str) -> None:
        node = stack.pop()
        if node.tag in wanted or (stack and f"{stack[-1].tag}/{node.tag}" in wanted):
            if stack:
                stack[-1].children.pop()
            done.append(Closed(node, tuple(stack)))

    def text(data: str) -> None:
        if not stack:
            return
        node = stack[-1]
        if node.children and data.isspace():  # layout between elements: nothing to keep
            return
        node.parts.append(data)
        node.size += len(data)
        if max_text is not None and node.size > max_text:
            raise over("max_value_length", max_text, f"the text of <{node.tag}>")

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    parser.EntityDeclHandler = refuse
    parser.UnparsedEntityDeclHandler = refuse
    parser.ExternalEntityRefHandler = refuse  # type: ignore[assignment]
    try:
        for line in lines:
            parser.Parse(line, False)  # decoded lines keep their ends
            yield from done
            done.clear()
        parser.Parse("", True)
    except expat.ExpatError as exc:
        raise XMLProblem(f"not well-formed XML: {expat.errors.messages[exc.code]}",
                         exc.lineno, exc.offset + 1) from None
    yield from done
    if not seen_root:
        raise XMLProblem("no XML element found", None, None)


def escape(text: str) -> str:
    """Text for an element or attribute: ``& < > "`` escaped, and every character
    outside ISO-8859-1 (the USEBIO prolog's charset) as a character reference."""
    out = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    out = out.replace('"', "&quot;")
    if out.isascii():
        return _no_controls(out)
    return _no_controls("".join(c if ord(c) < 256 else f"&#{ord(c)};" for c in out))


def _no_controls(text: str) -> str:
    """XML 1.0 cannot hold C0 controls but tab and line ends, even as references."""
    if all(c >= " " or c in "\t\n\r" for c in text):
        return text
    return "".join(c if c >= " " or c in "\t\n\r" else "&#65533;" for c in text)
