"""The page's own question dialog (confirm.js), as the browser tests read it."""

from __future__ import annotations

from typing import Any

PARTS = "#confirm-dialog h2, #confirm-dialog p, #confirm-dialog li, #confirm-dialog button"


def dialog_fits(page: Any) -> None:
    """Every line and button of the dialog is inside its box: nothing cut off or spilling
    out, and the dialog does not scroll sideways."""
    dialog = page.locator("#confirm-dialog")
    box = dialog.bounding_box()
    assert box is not None
    for part in page.locator(PARTS).all():
        inner = part.bounding_box()
        assert inner is not None
        assert box["x"] <= inner["x"] and inner["x"] + inner["width"] <= box["x"] + box["width"]
        assert box["y"] <= inner["y"] and inner["y"] + inner["height"] <= box["y"] + box["height"]
    assert not dialog.evaluate("d => d.scrollWidth > d.clientWidth")
