"""A chat-completions server on 127.0.0.1 that answers from a script, for testing and timing ``bench eval``.

It recognises each request's item by the SHA-256 of its image (the item's ``image_sha256``), checks that
the request carries the item's question, and then plays the item's script: one action per request, the
last one repeated.  Actions:

- ``gold``, ``wrong``, ``malformed``: answer 200 with the gold answer, a wrong one, or text with no answer;
- ``429``: Too Many Requests with ``Retry-After: 0`` (``429:S`` waits S seconds); ``429-bare``: without it;
- ``500``: an internal server error; ``403``: forbidden;
- ``slow``: sleep ``slow`` seconds (beyond the client's timeout) before answering gold;
- ``drop``: close the connection without a reply.

It also plays the endpoint's refusals: a wrong or missing key is a 401 that echoes the key it got (as some
servers do, so that a test can check the client hides it), an unknown model a 404 naming it, another path
a 404.  Every request is logged as ``(time, item id, action)``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from bench_core import Item

MALFORMED = "I am not able to make out the markers in this picture, sorry."


def wrong_answer(item: Item) -> str:
    """An answer that scores 0 for ``item``: a sequence reversed, another option, another number."""
    if item.answer_type == "sequence":
        return ", ".join(reversed(item.answer.split(", ")))
    if item.options:
        letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[: len(item.options)]
        return next(c for c in letters if c != item.answer)
    try:
        return str(int(item.answer) + 1)
    except ValueError:
        return item.answer + " not"


class ScriptedChatServer:
    """The server; use as a context manager (``url`` is the base URL, ending in /v1)."""

    def __init__(self, items: Iterable[Item], script: Mapping[str, Sequence[str]] | Callable[[Item], Sequence[str]],
                 *, model: str = "test-model", api_key: str | None = None, latency: float = 0.0,
                 slow: float = 1.0) -> None:
        self.items = {sha: item for item in items for sha in item.image_sha256}
        self.script = script
        self.model = model
        self.api_key = api_key
        self.latency = latency
        self.slow = slow
        self.log: list[tuple[float, str, str]] = []
        self.problems: list[str] = []  # requests that did not look as they should
        self.requests: list[dict[str, Any]] = []  # the decoded bodies
        self._count: dict[str, int] = {}
        self.in_flight = 0
        self.max_in_flight = 0  # the most chat requests handled at once
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    # -- lifecycle --------------------------------------------------------------------------------
    def __enter__(self) -> ScriptedChatServer:
        owner = self

        class Handler(_Handler):
            server_owner = owner

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._server.block_on_close = False
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.shutdown()
        self._server.server_close()

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    # -- script -----------------------------------------------------------------------------------
    def next_action(self, item: Item) -> str:
        """The action for this request of ``item``, logged."""
        steps = self.script(item) if callable(self.script) else self.script.get(item.id, ("gold",))
        with self._lock:
            n = self._count.get(item.id, 0)
            self._count[item.id] = n + 1
            action = steps[min(n, len(steps) - 1)]
            self.log.append((time.monotonic(), item.id, action))
        return action

    def asked(self, action: str | None = None) -> list[str]:
        """Item ids of the logged requests (of one action only, when given), in order."""
        return [i for _, i, a in self.log if action is None or a == action]


class _Handler(BaseHTTPRequestHandler):
    server_owner: ScriptedChatServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        return

    def _reply(self, status: int, body: Any, headers: Mapping[str, str] | None = None) -> None:
        data = (body if isinstance(body, str) else json.dumps(body)).encode()
        self._answered()  # in flight until its answer is sent: the client may ask again as soon as it arrives
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json" if not isinstance(body, str) else "text/plain")
            self.send_header("Content-Length", str(len(data)))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)
        except OSError:  # the client gave up (a timeout): nothing to do
            self.close_connection = True

    def do_GET(self) -> None:
        owner = self.server_owner
        if self.path == "/v1/models":
            self._reply(200, {"object": "list", "data": [{"id": owner.model, "object": "model"}]})
        else:
            self._reply(404, "Not Found")

    def do_POST(self) -> None:
        owner = self.server_owner
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path != "/v1/chat/completions":
            self._reply(404, "Not Found")
            return
        given = (self.headers.get("Authorization") or "").removeprefix("Bearer ")
        if owner.api_key is not None and given != owner.api_key:
            self._reply(401, {"error": {"message": f"Incorrect API key provided: {given}", "type": "auth"}})
            return
        request = json.loads(body)
        with owner._lock:
            owner.requests.append(request)
        if request.get("model") != owner.model:
            self._reply(404, {"error": {"message": f"The model `{request.get('model')}` does not exist.",
                                        "code": 404}})
            return
        item = self._item(request)
        if item is None:
            self._reply(400, {"error": {"message": "no known image in the request"}})
            return
        with owner._lock:
            owner.in_flight += 1
            owner.max_in_flight = max(owner.max_in_flight, owner.in_flight)
        self._counted = True
        try:
            self._play(item, owner.next_action(item))
        finally:
            self._answered()  # a dropped connection sends no answer

    def _answered(self) -> None:
        """Take this chat request out of ``in_flight`` (once), before its answer goes out: counted after it, the
        client's next request could arrive while this handler still counted itself."""
        if getattr(self, "_counted", False):
            self._counted = False
            owner = self.server_owner
            with owner._lock:
                owner.in_flight -= 1

    def _play(self, item: Item, action: str) -> None:
        owner = self.server_owner
        if owner.latency:
            time.sleep(owner.latency)
        if action == "drop":
            self.close_connection = True
            return
        if action.startswith("429"):
            wait = action.partition(":")[2] or "0"
            self._reply(429, {"error": {"message": "rate limited"}}, {} if action == "429-bare" else
                        {"Retry-After": wait})
            return
        if action in ("500", "403"):
            self._reply(int(action), {"error": {"message": {"500": "internal error", "403": "access denied"}[action]}})
            return
        if action == "slow":
            time.sleep(owner.slow)
            action = "gold"
        text = {"gold": item.answer, "wrong": wrong_answer(item), "malformed": MALFORMED}[action]
        self._reply(200, {
            "id": f"chatcmpl-{item.id}", "object": "chat.completion", "model": owner.model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 100, "completion_tokens": len(text.split()),
                      "total_tokens": 100 + len(text.split())},
        })

    def _item(self, request: Mapping[str, Any]) -> Item | None:
        """The item whose image the request carries; a request that lacks its question is noted as a problem."""
        owner = self.server_owner
        user = [m for m in request.get("messages", ()) if m.get("role") == "user"]
        parts = user[-1]["content"] if user and isinstance(user[-1].get("content"), list) else []
        item = None
        for part in parts:
            url = part.get("image_url", {}).get("url", "") if part.get("type") == "image_url" else ""
            if url.startswith("data:image/png;base64,"):
                sha = hashlib.sha256(base64.b64decode(url.split(",", 1)[1])).hexdigest()
                item = owner.items.get(sha, item)
        texts = [p.get("text", "") for p in parts if p.get("type") == "text"]
        if item is not None and not any(item.question in t for t in texts):
            with owner._lock:
                owner.problems.append(f"{item.id}: the question is not in the user message")
        return item
