import re


def text_of(html: str, marker: str) -> str:
    """The text inside the first element whose opening tag contains `marker` (an attribute),
    tags stripped and white space collapsed."""
    found = re.search(rf"<(\w+)[^>]*{re.escape(marker)}[^>]*>(.*?)</\1>", html, re.S)
    assert found, f"no element with {marker}"
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(2)).split())
