"""Write the tile numbers' glyph atlas that ``vision.synth`` paints rendered tiles with.

    python -m training.glyphs            # writes vision/data/tile_digits.png and .json

OpenCV's ``putText`` draws different letters in 4.x (Hershey strokes) and 5.x (an embedded TrueType
face), so a table rendered with it looked different on the Pi's OpenCV 4.11 than on the OpenCV 5 the
tile classifier was trained with, and the rendered-table tests read differently on the two. The atlas
fixes the look once: each number 1–13 drawn white on black by ``putText`` (OpenCV 5, FONT_HERSHEY_DUPLEX,
the stroke the renderer always used) on a reference tile ``REF_LONG`` px tall, cut to its bounding box.
The renderer scales these masks with ``cv2.resize(INTER_AREA)``, which both versions compute alike.
The glyphs are rasterised output of OpenCV's bundled font (OpenCV: Apache 2.0).
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from vision.synth import GLYPHS, REF_LONG, TILE_ASPECT


def draw(text: str, h: int = REF_LONG) -> np.ndarray:
    """The number as the renderer drew it before the atlas: white on black on an ``h`` px tile."""
    w = max(8, round(h * TILE_ASPECT))
    canvas = np.zeros((h, w), np.uint8)
    font = cv2.FONT_HERSHEY_DUPLEX
    thick = max(1, round(h / 22))
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, thick)
    scale = min(0.86 * w / tw, 0.40 * h / th)
    thick = max(1, round(thick * scale))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    origin = (round(w / 2 - tw / 2), round(h * 0.40 + th / 2))
    cv2.putText(canvas, text, origin, font, scale, 255, thick, cv2.LINE_AA)
    return canvas


def main() -> None:
    if int(cv2.__version__.split(".")[0]) < 5:
        raise SystemExit(f"run this with OpenCV 5 (the classifier's training renders), not {cv2.__version__}")
    pieces, boxes = [], {}
    x = 0
    for n in range(1, 14):
        mask = draw(str(n))
        ys, xs = np.nonzero(mask)
        y0, y1, x0, x1 = int(ys.min()), int(ys.max()) + 1, int(xs.min()), int(xs.max()) + 1
        pieces.append(mask[y0:y1, x0:x1])
        boxes[str(n)] = {"atlas": [x, 0, x1 - x0, y1 - y0], "tile": [x0, y0, x1 - x0, y1 - y0]}
        x += x1 - x0
    atlas = np.zeros((max(p.shape[0] for p in pieces), x), np.uint8)
    x = 0
    for p in pieces:
        atlas[: p.shape[0], x : x + p.shape[1]] = p
        x += p.shape[1]
    out = GLYPHS.with_suffix(".png")
    out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out), atlas)
    meta = {"ref_long": REF_LONG, "opencv": cv2.__version__, "glyphs": boxes}
    GLYPHS.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"wrote {out} ({atlas.shape[1]}×{atlas.shape[0]} px) and {Path(out).with_suffix('.json').name}")


if __name__ == "__main__":
    main()
