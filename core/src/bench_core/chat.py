"""A small client for OpenAI-compatible chat-completions endpoints (vLLM, SGLang, llama.cpp, hosted APIs).

It promises:

- every request has a timeout (seconds the server may stay silent while connecting or answering);
- a 429, a 5xx, a 408/409/425, a timeout, a dropped connection or a garbled 200 is retried up to
  ``max_retries`` times, after ``backoff * 2**(n-1)`` seconds (at most ``max_backoff``) scaled by a random
  factor in [0.5, 1] so that parallel requests spread out; a ``Retry-After`` (or ``retry-after-ms``) header
  is honoured instead (plus up to 10 %), and after a 429 that carries one every request of the client waits
  it out;
- a 401, 403 or 404, a redirect, or no server at the URL (refused, unknown host, bad certificate) before
  any answer raises ``EndpointError`` at once, saying what to fix (the key, the model, the URL);
- any other 4xx (a request the server will never take, e.g. an image too large) raises ``RequestFailed``
  for that request, unretried;
- the API key goes only into the ``Authorization`` header: it is cut out of every message the client
  produces, so that a server echoing it cannot put it in a log.

Standard library only (urllib): one connection per request keeps the client simple and thread-safe, honours
the ``*_proxy`` variables, and costs a TCP/TLS handshake that is small beside a model's answer.
"""

from __future__ import annotations

import email.utils
import http.client
import json
import random
import socket
import ssl
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from bench_core.errors import BenchError

#: Statuses retried besides every 5xx.
RETRY_STATUSES = frozenset({408, 409, 425, 429})
#: Longest wait honoured from a Retry-After header, in seconds.
MAX_RETRY_AFTER = 600.0


class EndpointError(BenchError):
    """The endpoint refuses every request (wrong key, model or URL): the run must stop."""


class RequestFailed(Exception):
    """One request failed for good: retries exhausted, or a status that retrying cannot change."""


class Stopped(Exception):
    """The client was asked to stop while the request waited or was about to be sent."""


@attrs.frozen
class Completion:
    """A model's answer to one request, and what it cost."""

    text: str
    reasoning: str | None
    usage: Mapping[str, Any] | None
    finish_reason: str | None
    response_id: str | None
    latency: float  # seconds of the request that succeeded
    attempts: int


class Stats:
    """Counters shared by every request of a run (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.requests = 0
        self.retried: Counter[str] = Counter()
        self.prompt_tokens = 0
        self.completion_tokens = 0

    def sent(self) -> None:
        with self._lock:
            self.requests += 1

    def retry(self, reason: str) -> None:
        with self._lock:
            self.retried[reason] += 1

    def tokens(self, usage: Mapping[str, Any] | None) -> None:
        def count(key: str) -> int:
            value = (usage or {}).get(key)
            return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0

        with self._lock:
            self.prompt_tokens += count("prompt_tokens")
            self.completion_tokens += count("completion_tokens")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # the 3xx comes back as an HTTPError, reported as a wrong URL


def chat_url(base_url: str) -> str:
    """The chat-completions URL of ``base_url`` (``.../v1``; a URL that already ends in /chat/completions is
    kept); a BenchError for anything that is not an http(s) URL."""
    parts = urllib.parse.urlsplit(base_url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BenchError(f"--base-url {base_url!r} is not an http(s) URL; give the endpoint's base, e.g. "
                         "http://localhost:8000/v1 or https://api.openai.com/v1")
    path = parts.path.rstrip("/")
    if not path.endswith("/chat/completions"):
        path += "/chat/completions"
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))


def public_url(url: str) -> str:
    """``url`` without user info, query or fragment: what may be written to a file."""
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = host + (f":{parts.port}" if parts.port else "")
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, "", ""))


class ChatClient:
    """Sends chat-completions requests for one model; see the module docstring for what it promises."""

    def __init__(self, base_url: str, model: str, *, api_key: str | None = None, key_source: str = "the API key",
                 timeout: float = 300.0, max_retries: int = 6, backoff: float = 1.0, max_backoff: float = 60.0,
                 params: Mapping[str, Any] | None = None, stop: threading.Event | None = None) -> None:
        self.url = chat_url(base_url)
        self.endpoint = public_url(self.url)
        self.model = model
        self._key = api_key or None
        self.key_source = key_source
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.params = dict(params or {})
        self.stop = stop or threading.Event()
        self.stats = Stats()
        self.reached = False  # some HTTP answer came back: later connection errors are transient
        self._not_before = 0.0  # monotonic time before which no request is sent (a 429's Retry-After)
        self._gate = threading.Lock()
        self._opener = urllib.request.build_opener(_NoRedirect())

    # -- public ----------------------------------------------------------------------------------
    def complete(self, messages: Sequence[Mapping[str, Any]]) -> Completion:
        """The model's answer to ``messages``; EndpointError, RequestFailed or Stopped as the module says."""
        body = json.dumps({"model": self.model, "messages": list(messages), **self.params}).encode("utf-8")
        last = ""
        for attempt in range(1, self.max_retries + 2):
            self._wait_gate()
            started = time.monotonic()
            delay = None
            try:
                status, headers, data = self._post(body)
            except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
                last = self._network_problem(exc)
            else:
                self.reached = True
                if status == 200:
                    try:
                        return self._completion(data, time.monotonic() - started, attempt)
                    except ValueError as exc:
                        last = f"a malformed reply ({exc})"
                elif status in RETRY_STATUSES or status >= 500:
                    last = f"HTTP {status}" + (f" ({self._message(data)})" if status != 429 else "")
                    delay = _retry_after(headers)
                    if status == 429 and delay is not None:
                        self._hold(delay)
                else:
                    self._refuse(status, headers, data)
            if attempt > self.max_retries:
                break
            self.stats.retry(last.split(" (")[0])
            if delay is None:
                delay = min(self.max_backoff, self.backoff * 2 ** (attempt - 1)) * random.uniform(0.5, 1.0)
            else:  # a Retry-After: at least that long, a little more so that waiting requests spread out
                delay *= random.uniform(1.0, 1.1)
            if self.stop.wait(delay):
                raise Stopped
        raise RequestFailed(f"gave up after {self.max_retries + 1} attempts; the last one got {last}")

    def models(self) -> list[str]:
        """The model names the endpoint lists at GET .../models, or [] when it lists none or cannot say."""
        url = self.url[: -len("/chat/completions")] + "/models"
        request = urllib.request.Request(url, headers=self._headers(), method="GET")
        try:
            with self._opener.open(request, timeout=min(self.timeout, 10.0)) as response:
                data = json.loads(response.read())
            return sorted(str(m["id"]) for m in data["data"] if isinstance(m, dict) and "id" in m)
        except Exception:  # only a hint in an error message
            return []

    def redact(self, text: str) -> str:
        """``text`` with the API key cut out."""
        return text.replace(self._key, "***") if self._key else text

    # -- one request -----------------------------------------------------------------------------
    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json", "User-Agent": "bench-eval"}
        if self._key:
            headers["Authorization"] = f"Bearer {self._key}"
        return headers

    def _post(self, body: bytes) -> tuple[int, Mapping[str, str], bytes]:
        if self.stop.is_set():
            raise Stopped
        request = urllib.request.Request(self.url, data=body, headers=self._headers(), method="POST")
        self.stats.sent()
        try:
            with self._opener.open(request, timeout=self.timeout) as response:
                return response.status, response.headers, response.read()
        except urllib.error.HTTPError as exc:
            try:
                data = exc.read()
            except (OSError, http.client.HTTPException):
                data = b""
            finally:
                exc.close()
            return exc.code, exc.headers, data

    def _network_problem(self, exc: BaseException) -> str:
        """What went wrong on the wire, for a retry; EndpointError if nothing has answered at the URL yet and
        nothing will (connection refused, unknown host, certificate rejected)."""
        reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
        if isinstance(reason, (TimeoutError, socket.timeout)):
            return f"a timeout (no answer within {self.timeout:g} s)"
        unreachable = isinstance(reason, (ConnectionRefusedError, socket.gaierror, ssl.SSLError))
        if unreachable and not self.reached:
            raise EndpointError(
                f"nothing answers at {self.endpoint} ({self.redact(str(reason))}): is the server running, and is "
                "--base-url right (scheme, host, port; e.g. http://localhost:8000/v1)?")
        return f"a dropped connection ({type(reason).__name__}: {self.redact(str(reason)) or 'no reply'})"

    def _completion(self, data: bytes, latency: float, attempt: int) -> Completion:
        """Parse a 200 reply; ValueError if it is not a chat completion."""
        try:
            reply = json.loads(data)
        except (ValueError, UnicodeDecodeError) as exc:
            raise ValueError(f"not JSON: {data[:80]!r}") from exc
        choices = reply.get("choices") if isinstance(reply, dict) else None
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise ValueError(f"no choices: {self._message(data)}")
        message = choices[0].get("message")
        if not isinstance(message, dict):
            raise ValueError("the first choice has no message")
        usage = reply.get("usage") if isinstance(reply.get("usage"), dict) else None
        self.stats.tokens(usage)
        reasoning = message.get("reasoning_content") or message.get("reasoning")
        return Completion(
            text=_text(message.get("content")),
            reasoning=reasoning if isinstance(reasoning, str) else None,
            usage=usage,
            finish_reason=choices[0].get("finish_reason") if isinstance(choices[0].get("finish_reason"), str) else None,
            response_id=reply.get("id") if isinstance(reply.get("id"), str) else None,
            latency=latency,
            attempts=attempt,
        )

    def _refuse(self, status: int, headers: Mapping[str, str], data: bytes) -> None:
        """Raise for a status that retrying cannot change: EndpointError for what stops every request,
        RequestFailed for a request of its own."""
        said = self._message(data)
        if status == 401:
            if self._key:
                raise EndpointError(f"the endpoint refused the API key from {self.key_source} (HTTP 401: {said}): "
                                    f"set {self.key_source} to a valid key for {self.endpoint}")
            raise EndpointError(f"the endpoint wants an API key (HTTP 401: {said}) and {self.key_source} is not "
                                "set: export it, or name the variable that holds the key with --api-key-env")
        if status == 403:
            raise EndpointError(f"the endpoint forbids the request (HTTP 403: {said}): the key from "
                                f"{self.key_source} may not use model {self.model!r}; check the key and --model")
        if status == 404:
            if "model" in said.lower() or self.model in said:
                served = self.models()
                listing = f"; it serves: {', '.join(served)}" if served else ""
                raise EndpointError(f"the endpoint has no model {self.model!r} (HTTP 404: {said}){listing}: "
                                    "fix --model")
            raise EndpointError(f"nothing at {self.endpoint} (HTTP 404: {said}): fix --base-url, the part of the URL "
                                "before /chat/completions (e.g. http://localhost:8000/v1)")
        if 300 <= status < 400:
            where = public_url(headers.get("Location", "")) if headers.get("Location") else "elsewhere"
            raise EndpointError(f"{self.endpoint} redirects (HTTP {status}) to {where}: give that as --base-url")
        raise RequestFailed(f"HTTP {status}: {said}")

    def _message(self, data: bytes) -> str:
        """The server's own words from an error body, short and without the key."""
        try:
            reply = json.loads(data)
        except (ValueError, UnicodeDecodeError):
            reply = None
        said: Any = None
        if isinstance(reply, dict):
            said = reply.get("error", reply.get("message", reply.get("detail")))
            if isinstance(said, dict):
                said = said.get("message", said)
        if said is None:
            said = data.decode("utf-8", "replace")
        text = " ".join(str(said).split()) or "no message"
        return self.redact(text if len(text) <= 200 else text[:197] + "...")

    # -- the shared wait after a 429 -------------------------------------------------------------
    def _hold(self, seconds: float) -> None:
        with self._gate:
            self._not_before = max(self._not_before, time.monotonic() + seconds)

    def _wait_gate(self) -> None:
        while True:
            if self.stop.is_set():
                raise Stopped
            with self._gate:
                wait = self._not_before - time.monotonic()
            if wait <= 0:
                return
            self.stop.wait(wait)


def _retry_after(headers: Mapping[str, str] | None) -> float | None:
    """Seconds a Retry-After / retry-after-ms header asks to wait (capped at MAX_RETRY_AFTER), or None."""
    if headers is None:
        return None
    millis = headers.get("retry-after-ms")
    value = headers.get("Retry-After")
    seconds: float | None = None
    try:
        if millis is not None:
            seconds = float(millis) / 1000
        elif value is not None:
            seconds = float(value)
    except ValueError:
        try:  # an HTTP date
            seconds = email.utils.parsedate_to_datetime(value).timestamp() - time.time() if value else None
        except (TypeError, ValueError, OverflowError):
            seconds = None
    if seconds is None or seconds != seconds:  # absent, or NaN
        return None
    return min(max(seconds, 0.0), MAX_RETRY_AFTER)


def _text(content: Any) -> str:
    """A message's content as text: a string, the text parts of a list of parts, or '' for none."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""
