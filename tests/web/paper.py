"""Pages on paper, for the print tests: a page printed to PDF by Chromium (``page.pdf``, background
graphics off, as a browser prints by default), each PDF page drawn to an image by Chromium's own PDF
viewer (PDFium), and what a reader sees measured on that image: the luminance of the ink and the paper
(WCAG contrast), and whether a mark (a trait dot, a resource box) is filled.

No PDF library and no ``pdftoppm`` is needed: the viewer is the browser's. A drawn page is taken once
two screenshots in a row are the same and not blank (the viewer draws in steps), never after a fixed
wait. An element's place on the paper comes from the same page laid out in print emulation at the
paper's width (``page.pdf`` lays it out so): CSS pixels from the top left of the printable area,
scaled to the image by the PDF page's width found in the screenshot.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path

from PIL import Image
from playwright.sync_api import Page

MM = 96 / 25.4  # CSS pixels per millimetre
A4 = (210 * MM, 297 * MM)
MARGIN = {"top": 14 * MM, "left": 12 * MM}  # static/print.css: @page { margin: 14mm 12mm }
CONTENT_WIDTH = A4[0] - 2 * MARGIN["left"]
VIEWER = {"width": 900, "height": 1240}
SETTLE_SHOTS = 80


def pdf_of(page: Page, path: Path) -> bytes:
    """The page printed to an A4 PDF as a browser prints it (no background graphics), kept at ``path``."""
    data = page.pdf(format="A4", print_background=False, prefer_css_page_size=True)
    path.write_bytes(data)
    return data


def page_count(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", data))


@dataclass
class Paper:
    """One PDF page drawn to an image; ``box``: where the page is in it (left, top, right, bottom)."""

    image: Image.Image
    box: tuple[int, int, int, int]

    @property
    def scale(self) -> float:
        return (self.box[2] - self.box[0]) / A4[0]

    def at(self, x: float, y: float) -> tuple[int, int]:
        """The image's pixel of a point laid out at (x, y) CSS px in the printable area of this page."""
        return (
            round(self.box[0] + (MARGIN["left"] + x) * self.scale),
            round(self.box[1] + (MARGIN["top"] + y) * self.scale),
        )

    def crop(self, rect: dict) -> Image.Image:
        left, top = self.at(rect["x"], rect["y"])
        right, bottom = self.at(rect["x"] + rect["width"], rect["y"] + rect["height"])
        return self.image.crop((left, top, right, bottom))

    def page(self) -> Image.Image:
        return self.image.crop(self.box)


def draw(viewer: Page, pdf: Path, number: int) -> Paper:
    """Page ``number`` (from 1) of the PDF, drawn by Chromium's viewer."""
    viewer.set_viewport_size(VIEWER)
    viewer.goto(f"{pdf.as_uri()}?page={number}#page={number}&toolbar=0&navpanes=0&view=Fit")
    last = None
    for _ in range(SETTLE_SHOTS):  # until the viewer has drawn the page: two same, non-blank shots
        shot = viewer.screenshot()
        gray = Image.open(io.BytesIO(shot)).convert("L")
        low, high = gray.getextrema()
        if shot == last and high - low > 100 and _page_box(gray) is not None:
            break
        last = shot
    else:
        raise AssertionError(f"Chromium's viewer did not draw page {number} of {pdf}")
    box = _page_box(gray)
    assert box is not None
    return Paper(Image.open(io.BytesIO(shot)).convert("RGB"), box)


def _page_box(gray: Image.Image) -> tuple[int, int, int, int] | None:
    """The white page in the viewer's dark frame: the bounds of the pixels lighter than the frame."""
    mask = gray.point(lambda v: 255 if v > 200 else 0)
    box = mask.getbbox()
    if box is None or (box[2] - box[0]) < gray.width * 0.5:
        return None
    return box


def luminance(rgb: tuple[int, int, int]) -> float:
    def channel(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = rgb[:3]
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ink_and_paper(region: Image.Image) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """The darkest colour (the text's ink) and the commonest (the paper under it) of a region."""
    colours = region.convert("RGB").getcolors(region.width * region.height) or []
    paper = max(colours)[1]
    ink = min(colours, key=lambda c: luminance(c[1]))[1]
    return ink, paper


def filled(paper: Paper, rect: dict) -> bool:
    """Whether a mark laid out at ``rect`` is filled on paper: its middle is dark."""
    x, y = paper.at(rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2)
    return luminance(paper.image.getpixel((x, y))) < 0.2
