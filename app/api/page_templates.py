"""The pages' templates (web/templates), read on the first page asked for."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi.responses import HTMLResponse

from app.domain.games import OTHER_GAMES

if TYPE_CHECKING:
    from fastapi.templating import Jinja2Templates

WEB = Path(__file__).resolve().parent.parent.parent / "web"


class Templates:
    """The page templates, read on the first page asked for (a start does not wait)."""

    @functools.cached_property
    def jinja(self) -> Jinja2Templates:
        from fastapi.templating import Jinja2Templates

        jinja = Jinja2Templates(directory=WEB / "templates")
        #: Formats of another game (their own table engine and tournament): offered
        #: beside the Warmachine formats on the quick-game and new-event forms.
        jinja.env.globals["other_games"] = list(OTHER_GAMES)
        return jinja

    def TemplateResponse(self, *args: Any, **kwargs: Any) -> HTMLResponse:
        response: HTMLResponse = self.jinja.TemplateResponse(*args, **kwargs)
        return response


templates = Templates()
