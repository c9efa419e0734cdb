"""The table page's service worker is served from the root (its scope covers /t/), with
the app shell's file list and a version made from the files filled in."""

from __future__ import annotations

import json
import re

import httpx

from tests.conftest import RunningServer


async def test_the_service_worker_lists_a_shell_that_is_served(server: RunningServer) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        response = await http.get("/sw.js")
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/javascript")
        assert response.headers["cache-control"] == "no-cache"
        source = response.text
        assert "__SHELL__" not in source and "__VERSION__" not in source
        assert re.search(r'const VERSION = "[0-9a-f]{16}";', source)
        shell = json.loads(re.search(r"const SHELL = (\[.*?\]);", source).group(1))
        assert "/static/table/main.js" in shell and "/static/css/table.css" in shell
        for path in shell:
            assert (await http.get(path)).status_code == 200, path
        # The table page registers it.
        page = await http.get("/static/table/main.js")
        assert 'register("/sw.js", { scope: "/t/" })' in page.text
