"""The API docs (Swagger UI from the swagger-ui-bundle package, not a CDN: ``/docs``
works offline) and the web dashboard's static files at ``/``."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles
from swagger_ui_bundle import swagger_ui_path

router = APIRouter()


@router.get("/docs", include_in_schema=False)
def swagger_ui(request: Request) -> Response:
    return get_swagger_ui_html(openapi_url=request.app.openapi_url or "/openapi.json",
                               title="pokerarena API",
                               swagger_js_url="/docs-assets/swagger-ui-bundle.js",
                               swagger_css_url="/docs-assets/swagger-ui.css",
                               swagger_favicon_url="/docs-assets/favicon-32x32.png")


def mount_files(app: FastAPI, web_dir: str | Path | None) -> None:
    """Mount the docs' assets and, when ``web_dir`` is a folder, the dashboard at ``/``
    (last: a mount at ``/`` answers every path no route took)."""
    app.mount("/docs-assets", StaticFiles(directory=str(swagger_ui_path)), name="docs-assets")
    if web_dir is not None and Path(web_dir).is_dir():
        app.mount("/", StaticFiles(directory=str(web_dir), html=True), name="web")
