"""The spec's allow-list for post HTML, enforced with nh3 (Rust's ammonia) on the way in and
again on the way out; the browser sanitises once more with DOMPurify."""

from __future__ import annotations

import re

import nh3

TAGS = {
    *("h1", "h2", "h3", "h4", "h5", "h6"),
    *("p", "br", "b", "strong", "i", "em", "u", "s", "strike", "del"),
    *("ul", "ol", "li", "a", "img", "span", "div", "blockquote", "code", "pre"),
    *("table", "thead", "tbody", "tfoot", "tr", "th", "td"),
}
#: Tags whose content goes with them (script text is not article text).
DROPPED_WITH_CONTENT = {"script", "style", "iframe", "object", "embed", "template", "noscript"}
ATTRIBUTES = {
    "*": {"style", "class"},
    "a": {"href", "target"},
    "img": {"src", "alt"},
}
#: `rel` is always set by the sanitiser itself (a post cannot drop noopener).
LINK_REL = "noopener noreferrer nofollow"
URL_SCHEMES = {"http", "https", "mailto"}
#: CSS a rich-text editor writes: colours, alignment, type, spacing, sizes. No url() and no
#: positioning, so a post cannot load a resource or lay itself over the page.
STYLE_PROPERTIES = {
    "color",
    "background-color",
    "text-align",
    "text-decoration",
    "font-weight",
    "font-style",
    "font-size",
    "font-family",
    "line-height",
    "margin",
    "margin-left",
    "margin-right",
    "margin-top",
    "margin-bottom",
    "padding",
    "padding-left",
    "padding-right",
    "width",
    "height",
    "max-width",
    "border",
    "border-collapse",
    "vertical-align",
    "white-space",
}
TARGETS = {"_blank", "_self"}


#: The only CSS functions a declaration may call (colours); url(), expression() and the rest
#: make the declaration go.
_CSS_FUNCTION = re.compile(r"([a-zA-Z-]+)\s*\(")
_CSS_FUNCTIONS_ALLOWED = {"rgb", "rgba", "hsl", "hsla"}


def _style(value: str) -> str | None:
    kept = []
    for declaration in value.split(";"):
        declaration = declaration.strip()
        if not declaration or "\\" in declaration or "/*" in declaration:
            continue
        functions = {f.lower() for f in _CSS_FUNCTION.findall(declaration)}
        if functions - _CSS_FUNCTIONS_ALLOWED:
            continue
        kept.append(declaration)
    return ";".join(kept) or None


def _attribute(tag: str, name: str, value: str) -> str | None:
    if name == "style":
        return _style(value)
    if name == "target":
        return value if value in TARGETS else None
    if name == "class":
        # Editor classes only: letters, digits, dashes and underscores.
        kept = [c for c in value.split() if c.replace("-", "").replace("_", "").isalnum()]
        return " ".join(kept) or None
    return value


def clean_html(html: str) -> str:
    return nh3.clean(
        html,
        tags=TAGS,
        clean_content_tags=DROPPED_WITH_CONTENT,
        attributes=ATTRIBUTES,
        attribute_filter=_attribute,
        link_rel=LINK_REL,
        url_schemes=URL_SCHEMES,
        filter_style_properties=STYLE_PROPERTIES,
        strip_comments=True,
    )


def plain_text(html: str) -> str:
    """The words of an HTML fragment (for checks such as "is there any content")."""
    return " ".join(nh3.clean(html, tags=set()).split())
