"""Reading pages and fragments as a browser would: elements by their attributes, and text, so that
tests say what a page shows, whatever the attributes' order or the template's line breaks."""

from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


@dataclass
class Element:
    tag: str
    attrs: dict[str, str | None]
    text: str = ""
    children: list["Element"] = field(default_factory=list)

    def has(self, name: str) -> bool:
        return name in self.attrs

    def __getitem__(self, name: str) -> str | None:
        return self.attrs[name]


class _Reader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self.open: list[Element] = []

    def handle_starttag(self, tag, attrs):
        element = Element(tag, dict(attrs))
        if self.open:
            self.open[-1].children.append(element)
        self.elements.append(element)
        if tag not in VOID:
            self.open.append(element)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.open.pop()

    def handle_endtag(self, tag):
        for depth in range(len(self.open) - 1, -1, -1):
            if self.open[depth].tag == tag:
                del self.open[depth:]
                return

    def handle_data(self, data):
        for element in self.open:
            element.text += data


def elements(html: str | bytes, tag: str | None = None, **attrs) -> list[Element]:
    """The elements with `tag` (any, if None) and every attribute in `attrs` (an underscore in a
    name stands for a hyphen: data_pos="3"; a value of True asks only that the attribute is
    there)."""
    reader = _Reader()
    reader.feed(html.decode() if isinstance(html, bytes) else html)
    wanted = {name.replace("_", "-"): value for name, value in attrs.items()}
    return [
        element
        for element in reader.elements
        if (tag is None or element.tag == tag)
        and all(
            name in element.attrs and (value is True or element.attrs[name] == str(value))
            for name, value in wanted.items()
        )
    ]


def element(html: str | bytes, tag: str | None = None, **attrs) -> Element:
    """The one element so described."""
    found = elements(html, tag, **attrs)
    assert len(found) == 1, f"{len(found)} elements {tag or ''} {attrs}"
    return found[0]


def text(html: str | bytes) -> str:
    """The page's text as it reads, white space collapsed."""
    reader = _Reader()
    parts = []
    reader.handle_data = parts.append
    reader.feed(html.decode() if isinstance(html, bytes) else html)
    return " ".join(" ".join(parts).split())
