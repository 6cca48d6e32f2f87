"""Debian's headless chromium for the tests that check what a person sees: the DOM a page renders to, the errors its
scripts log, and a screenshot."""

from __future__ import annotations

import dataclasses
import html.parser
import os
import shutil
import subprocess

import pytest


def chromium() -> str:
    path = shutil.which("chromium") or "/usr/bin/chromium"
    if not os.access(path, os.X_OK):
        pytest.skip("chromium is not installed (`make test-py` installs Debian's with apt-get where it can)")
    return path


def headless(browser: str, profile: str, *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
         "--force-device-scale-factor=1", *arguments],
        capture_output=True, timeout=120,
    )  # fmt: skip


@dataclasses.dataclass
class Element:
    """An element of a rendered page: its tag, attributes, children and its own text."""

    tag: str
    attributes: dict[str, str]
    children: list[Element] = dataclasses.field(default_factory=list)
    text: str = ""

    def iter(self, tag: str | None = None, cls: str | None = None):
        """This element and every one below it, in document order, with that tag and class if given."""
        if (tag is None or self.tag == tag) and (cls is None or cls in self.attributes.get("class", "").split()):
            yield self
        for child in self.children:
            yield from child.iter(tag, cls)

    def all_text(self) -> str:
        return self.text + "".join(child.all_text() for child in self.children)


_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Builder(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {})
        self.open = [self.root]

    def handle_starttag(self, tag, attrs):
        element = Element(tag, {k: v or "" for k, v in attrs})
        self.open[-1].children.append(element)
        if tag not in _VOID:
            self.open.append(element)

    def handle_startendtag(self, tag, attrs):
        self.open[-1].children.append(Element(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag):
        for depth in range(len(self.open) - 1, 0, -1):
            if self.open[depth].tag == tag:
                del self.open[depth:]
                return

    def handle_data(self, data):
        self.open[-1].text += data


def parse_html(text: str) -> Element:
    """A page's elements as written (before any script runs), for checks that need no browser."""
    builder = _Builder()
    builder.feed(text)
    return builder.root


@dataclasses.dataclass
class Rendered:
    root: Element
    console_errors: list[str]


def render(page: str, profile: str) -> Rendered:
    """The DOM chromium builds from the page once its scripts ran, and the errors its console logged."""
    done = headless(chromium(), profile, "--enable-logging=stderr", "--v=0", "--dump-dom", f"file://{page}")
    assert done.returncode == 0, done.stderr[-2000:]
    root = parse_html(done.stdout.decode())
    errors = [
        line for line in done.stderr.decode(errors="replace").splitlines()
        if ":CONSOLE" in line and ("Uncaught" in line or "Error" in line)
    ]  # fmt: skip
    return Rendered(root, errors)


def screenshot(page: str, profile: str, out: str, width: int, height: int) -> bytes:
    done = headless(chromium(), profile, f"--screenshot={out}", f"--window-size={width},{height}", f"file://{page}")
    assert done.returncode == 0 and os.path.exists(out), done.stderr[-2000:]
    with open(out, "rb") as picture:
        return picture.read()
