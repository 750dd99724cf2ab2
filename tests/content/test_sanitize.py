"""The server sanitiser against an XSS corpus (shared with the browser's test): whatever comes
out uses only the allow-listed tags and attributes, no script-bearing URL and no CSS that loads
anything or escapes the article."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from callwright.content.sanitize import ATTRIBUTES, LINK_REL, STYLE_PROPERTIES, TAGS, clean_html

CORPUS = json.loads(
    (Path(__file__).parents[2] / "frontend/src/testing/xss-corpus.json").read_text()
)
BAD_URL = re.compile(r"^\s*(javascript|vbscript|data):", re.IGNORECASE)


class Walk(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.seen: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.seen.append((tag, attrs))


def _assert_safe(html: str) -> None:
    walk = Walk()
    walk.feed(html)
    for tag, attrs in walk.seen:
        assert tag in TAGS, (tag, html)
        allowed = ATTRIBUTES["*"] | ATTRIBUTES.get(tag, set()) | ({"rel"} if tag == "a" else set())
        for name, value in attrs:
            assert name in allowed, (tag, name, html)
            value = value or ""
            if name in ("href", "src"):
                assert not BAD_URL.match(value), (name, value)
            if name == "style":
                for declaration in filter(None, (d.strip() for d in value.split(";"))):
                    prop = declaration.split(":", 1)[0].strip().lower()
                    assert prop in STYLE_PROPERTIES, declaration
                assert "url(" not in value.lower()
                assert "expression" not in value.lower()
            if name == "rel":
                assert value == LINK_REL
            if name == "target":
                assert value in ("_blank", "_self")


@pytest.mark.parametrize("html", CORPUS)
def test_corpus_comes_out_safe(html: str) -> None:
    cleaned = clean_html(html)
    _assert_safe(cleaned)
    assert "alert(" not in cleaned.lower() or "<" not in cleaned  # only as inert text
    assert clean_html(cleaned) == cleaned, "sanitising is stable"


def test_allowed_content_survives() -> None:
    html = (
        '<h2 style="text-align:center">Title</h2><p>A <strong>b</strong> <em>i</em> <u>u</u> '
        '<s>s</s> <a href="https://example.com" target="_blank">link</a></p>'
        "<ul><li>one</li></ul><ol><li>two</li></ol><blockquote>q</blockquote>"
        '<pre><code>x = 1</code></pre><img src="https://example.com/a.png" alt="A">'
        "<table><thead><tr><th>h</th></tr></thead><tbody><tr><td>c</td></tr></tbody></table>"
        '<p><span style="color:#ff0000">red</span></p><div class="note">d</div>'
    )
    cleaned = clean_html(html)
    for fragment in (
        '<h2 style="text-align:center">Title</h2>',
        "<strong>b</strong>",
        '<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">link</a>',
        "<pre><code>x = 1</code></pre>",
        '<img src="https://example.com/a.png" alt="A">',
        '<span style="color:#ff0000">red</span>',
        '<div class="note">d</div>',
        "<th>h</th>",
        "<blockquote>q</blockquote>",
    ):
        assert fragment in cleaned, fragment
