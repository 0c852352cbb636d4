"""The admin's pages read as a browser reads them: elements by their attributes, in document
order, and their text with white space collapsed."""

from dataclasses import dataclass, field
from html.parser import HTMLParser

# Elements that never have content or an end tag.
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


@dataclass
class Element:
    tag: str
    attrs: dict[str, str | None]
    children: list["Element"] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return " ".join(" ".join(self.texts).split())

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    def descendants(self):
        for child in self.children:
            yield child
            yield from child.descendants()

    def find_all(self, attribute: str, value: str | None = None) -> list["Element"]:
        """Every element inside with `attribute` (set to `value`, if given)."""
        return [
            element
            for element in self.descendants()
            if attribute in element.attrs and value in (None, element.attrs[attribute])
        ]

    def find(self, attribute: str, value: str | None = None) -> "Element":
        found = self.find_all(attribute, value)
        assert found, f"no element with {attribute}={value!r}"
        return found[0]


class _TreeBuilder(HTMLParser):
    def __init__(self):
        super().__init__()
        self.root = Element("#document", {})
        self.open = [self.root]

    def handle_starttag(self, tag, attrs):
        element = Element(tag, dict(attrs))
        self.open[-1].children.append(element)
        if tag not in VOID:
            self.open.append(element)

    def handle_startendtag(self, tag, attrs):
        self.open[-1].children.append(Element(tag, dict(attrs)))

    def handle_endtag(self, tag):
        if any(element.tag == tag for element in self.open[1:]):
            while self.open.pop().tag != tag:
                pass

    def handle_data(self, data):
        for element in self.open:
            element.texts.append(data)


def parse(html: str) -> Element:
    builder = _TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root


def text_of(html: str, attribute: str, value: str | None = None) -> str:
    """The text of the first element with `attribute` (set to `value`, if given)."""
    return parse(html).find(attribute, value).text


def changelist(html: str) -> list[dict[str, Element]]:
    """An admin change list's results, one row each: a column's name to its cell."""
    return [
        {
            name.removeprefix("field-"): cell
            for cell in row.children
            for name in cell.classes
            if name.startswith("field-")
        }
        for table in parse(html).find_all("id", "result_list")
        for body in table.children
        if body.tag == "tbody"
        for row in body.children
        if row.tag == "tr"
    ]
