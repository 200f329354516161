"""The printable sheet of the four calibration markers (A4 landscape, 300 dpi), as PNG or PDF.

Print it at 100 % and cut out the markers, or lay the sheet itself on the table: marker 0 goes to the
play area's top-left corner (as the camera sees it), then 1, 2, 3 clockwise.

>>> sheet = marker_sheet()
>>> sheet.shape, sheet.dtype.name
((2480, 3508), 'uint8')
"""

from __future__ import annotations

import zlib
from pathlib import Path

import cv2
import numpy as np

from vision.calibration import CORNER_IDS, marker_image

DPI = 300
A4_MM = (297.0, 210.0)  # landscape
MARKER_MM = 50.0
EDGE_MM = 15.0


def _px(mm: float) -> int:
    return round(mm / 25.4 * DPI)


def marker_sheet() -> np.ndarray:
    """The sheet as a grey image: four markers in the corners, ids and directions printed beside them."""
    w, h = _px(A4_MM[0]), _px(A4_MM[1])
    sheet = np.full((h, w), 255, np.uint8)
    side, edge = _px(MARKER_MM), _px(EDGE_MM)
    corners = [
        (edge, edge),
        (w - edge - side, edge),
        (w - edge - side, h - edge - side),
        (edge, h - edge - side),
    ]
    names = ("top-left", "top-right", "bottom-right", "bottom-left")
    for marker_id, (x, y), name in zip(CORNER_IDS, corners, names, strict=True):
        sheet[y : y + side, x : x + side] = marker_image(marker_id, side)
        text_y = y + side + 70 if y < h / 2 else y - 30
        cv2.putText(
            sheet, f"{marker_id}: {name}", (x, text_y), cv2.FONT_HERSHEY_SIMPLEX, 2.0, 0, 4, cv2.LINE_AA
        )
    lines = (
        "Tabletop Referee - calibration markers (ArUco 4x4_50, ids 0-3)",
        "Print at 100 %. The play area is the rectangle between the marker centres;",
        "the hold zone is its bottom fifth (nearest marker 2 and 3) unless set otherwise.",
    )
    for i, line in enumerate(lines):
        cv2.putText(
            sheet, line, (_px(70), h // 2 - 80 + 80 * i), cv2.FONT_HERSHEY_SIMPLEX, 1.6, 0, 3, cv2.LINE_AA
        )
    return sheet


def _pdf(image: np.ndarray, page_pt: tuple[float, float]) -> bytes:
    """A one-page PDF showing a grey image over the whole page."""
    h, w = image.shape
    data = zlib.compress(image.tobytes())
    content = f"q {page_pt[0]:.2f} 0 0 {page_pt[1]:.2f} 0 0 cm /Im0 Do Q".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {page_pt[0]:.2f} {page_pt[1]:.2f}] "
        "/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>".encode(),
        f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceGray "
        f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(data)} >>\nstream\n".encode()
        + data
        + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def save_sheet(path: str | Path) -> Path:
    """Write the sheet as ``.png`` or ``.pdf`` (by the suffix); raises ``ValueError`` for other suffixes."""
    target = Path(path)
    sheet = marker_sheet()
    suffix = target.suffix.lower()
    if suffix == ".png":
        if not cv2.imwrite(str(target), sheet):
            raise OSError(f"{target}: cannot write the image")
    elif suffix == ".pdf":
        target.write_bytes(_pdf(sheet, (A4_MM[0] / 25.4 * 72, A4_MM[1] / 25.4 * 72)))
    else:
        raise ValueError(f"{target}: the marker sheet is written as .png or .pdf")
    return target
