"""The API docs (Swagger UI from the swagger-ui-bundle package, not a CDN: ``/docs``
works offline), the dashboard's charting library (Plotly's own bundle, from the installed
``plotly`` package: no CDN either) and the web dashboard's static files at ``/``."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, Response
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


def plotly_bundle() -> Path:
    """The minified plotly.js the ``plotly`` package ships (its ``package_data``)."""
    import plotly

    return Path(plotly.__file__).parent / "package_data" / "plotly.min.js"


@router.get("/vendor/plotly.min.js", include_in_schema=False)
def plotly_js() -> Response:
    """Plotly's browser bundle, served from the installed package (cached a day)."""
    return FileResponse(plotly_bundle(), media_type="text/javascript",
                        headers={"Cache-Control": "public, max-age=86400"})


def mount_files(app: FastAPI, web_dir: str | Path | None) -> None:
    """Mount the docs' assets and, when ``web_dir`` is a folder, the dashboard at ``/``
    (last: a mount at ``/`` answers every path no route took)."""
    app.mount("/docs-assets", StaticFiles(directory=str(swagger_ui_path)), name="docs-assets")
    if web_dir is not None and Path(web_dir).is_dir():
        app.mount("/", StaticFiles(directory=str(web_dir), html=True), name="web")
