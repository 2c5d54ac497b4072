"""The browser explorer (bin/splotch --serve) served from this Python process, shown in a notebook."""
from __future__ import annotations

import atexit
import html
import weakref
from typing import Any, List, Optional, Union

_running: "weakref.WeakSet[Explorer]" = weakref.WeakSet()


@atexit.register
def _stop_all() -> None:  # (the server's threads end before the interpreter does)
    for explorer in list(_running):
        explorer.stop()


class Explorer:
    """The page that flies through a snapshot, a parameter file's scene or particles in memory
    and tunes its keys (bin/splotch --serve), served by this process on threads of its own while
    the notebook goes on; shown in a notebook as the page itself (an IFrame of its URL).

    The snapshot is read once, by the first view; the server listens on `host` (127.0.0.1: this
    machine only) and the URL carries a token, as bin/splotch --serve's does. It serves until
    stop() (or the end of the Python process). Its Save .par and movies are bin/splotch's."""

    def __init__(self, core: Any, input: str, width: Union[int, str], height: int, proxy: Optional[str]) -> None:
        self._core = core
        self.input = input
        self.url: str = core.url
        self.port: int = core.port
        self.token: str = core.token
        self.warnings: List[str] = list(core.warnings)
        self.width = width
        self.height = height
        self.proxy = proxy
        _running.add(self)

    @property
    def serving(self) -> bool:
        return self._core.serving

    @property
    def drawn(self) -> int:
        """Pictures drawn so far (the first view's among them)."""
        return self._core.drawn

    @property
    def page(self) -> str:
        """The address the notebook's browser opens: the URL, or through `proxy` (a
        jupyter-server-proxy's "/proxy/{port}/", say) where the notebook runs on another machine."""
        if self.proxy is None:
            return self.url
        return self.proxy.format(port=self.port) + "?token=" + self.token

    def stop(self) -> None:
        """Stops serving (a movie being written stops after its frame); the particles are released."""
        self._core.stop()
        _running.discard(self)

    def __enter__(self) -> "Explorer":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def _repr_html_(self) -> str:
        if not self.serving:
            return f"<p>splotch explorer of {html.escape(self.input)}: stopped</p>"
        width = self.width if isinstance(self.width, str) else f"{int(self.width)}"
        page = html.escape(self.page, quote=True)
        return (f'<iframe src="{page}" width="{width}" height="{int(self.height)}" '
                f'style="border: 1px solid #888" title="splotch explorer"></iframe>'
                f'<p style="font-size: small">splotch explorer of {html.escape(self.input)}: '
                f'<a href="{page}" target="_blank">{html.escape(self.page)}</a> '
                f"(on another machine than the notebook's browser: an ssh tunnel to port {self.port}, "
                f'or explore(..., proxy="/proxy/{{port}}/") with jupyter-server-proxy)</p>')

    def __repr__(self) -> str:
        state = "serving at " + self.url if self.serving else "stopped"
        return f"<splotch.Explorer of {self.input}, {state}>"
