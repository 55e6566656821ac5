"""A client of the corpdata API in one file, on Python's standard library only (urllib).

    from corpdata import Client, CorpdataError

    corpdata = Client("http://localhost:8080", os.environ["CORPDATA_KEY"])
    try:
        answer = corpdata.revenues(ticker="AAPL", reporting_period=-1)
        if answer.no_data:
            print("no figure for that period")
        for record in answer.data:
            print(record["reporting_period"], record["value"], record["ccy"])
    except CorpdataError as error:
        print(error.kind, error.detail, error.required_subscription)

Every call returns an Answer (data, credits, request_id, no_data, test_mode) or raises a
CorpdataError holding the server's problem details (RFC 9457). Calls are retried with exponential,
jittered backoff on 429, 502, 503, 504 and failed connections, honouring Retry-After.
"""

from __future__ import annotations

import base64
import email.utils
import hashlib
import hmac
import http.client
import json
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Union

__all__ = [
    "Answer",
    "Client",
    "CorpdataError",
    "RETRIED_STATUSES",
    "WebhookVerificationError",
    "datasets_of",
    "verify_webhook",
]


def datasets_of(document: Dict[str, Any]) -> List[str]:
    """The datasets an OpenAPI document serves, in its order: each has /api/v1/{name} and /api/v1/{name}/periods."""
    paths = document.get("paths", {})
    return [
        p[len("/api/v1/") : -len("/periods")]
        for p in paths
        if p.startswith("/api/v1/") and p.endswith("/periods") and p[: -len("/periods")] in paths
    ]

#: Statuses worth another try: busy or restarting (502, 503, 504), or too fast (429).
RETRIED_STATUSES = frozenset({429, 502, 503, 504})

_KINDS = {
    400: "bad_request",
    401: "unauthorized",
    402: "insufficient_credits",
    403: "subscription_required",
    404: "not_found",
    405: "method_not_allowed",
    429: "rate_limited",
    500: "server_error",
    502: "bad_gateway",
    503: "unavailable",
    504: "gateway_timeout",
}


class CorpdataError(Exception):
    """A refusal of the API, or a call that got no answer.

    kind: bad_request, unauthorized, insufficient_credits, subscription_required, not_found,
    rate_limited, server_error, bad_gateway, unavailable, gateway_timeout, network, timeout or
    unexpected. status is 0 when no answer came. For a refusal, message is the server's sentence
    (the problem's detail); param names the parameter of a 400, required_subscription the
    subscription a 403 lacks, available_periods and did_you_mean what a 404 suggests.
    """

    def __init__(
        self,
        kind: str,
        message: str,
        status: int = 0,
        problem: Optional[Dict[str, Any]] = None,
        headers: Optional[Any] = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.status = status
        self.problem = problem
        problem = problem or {}
        self.title: Optional[str] = problem.get("title")
        self.detail: Optional[str] = problem.get("detail")
        self.param: Optional[str] = problem.get("param")
        self.required_subscription: Optional[str] = problem.get("required_subscription")
        self.available_periods: Optional[List[int]] = problem.get("available_periods")
        self.did_you_mean: Optional[List[Dict[str, str]]] = problem.get("did_you_mean")
        self.request_id: Optional[str] = headers.get("X-Request-Id") if headers is not None else None
        self.credits = _credits(headers)
        self.retry_after = _retry_after(headers.get("Retry-After")) if headers is not None else None

    def __repr__(self) -> str:
        return "CorpdataError(kind=%r, status=%r, message=%r)" % (self.kind, self.status, self.message)


@dataclass
class Answer:
    """An answer with the credits it cost. no_data: the server had nothing (204), data is []."""

    data: Any
    credits: Optional[Dict[str, int]]
    request_id: Optional[str]
    no_data: bool = False
    test_mode: bool = False
    etag: Optional[str] = None


def _credits(headers: Optional[Any]) -> Optional[Dict[str, int]]:
    if headers is None:
        return None
    cost, balance = headers.get("X-Credit-Cost"), headers.get("X-Credit-Balance")
    if cost is None or balance is None:
        return None
    return {"cost": int(cost), "balance": int(balance)}


def _retry_after(value: Optional[str]) -> Optional[float]:
    """Seconds from a Retry-After header: delay-seconds or an HTTP date; None if absent or unreadable."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        at = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, at.timestamp() - time.time())


def _error_of(error: urllib.error.HTTPError) -> CorpdataError:
    """The CorpdataError of a refusal: its problem details if the body holds them, else its text."""
    try:
        text = error.read().decode("utf-8", "replace")
    except (OSError, http.client.HTTPException):
        text = ""
    problem = None
    try:
        body = json.loads(text)
        if isinstance(body, dict) and isinstance(body.get("detail"), str):
            problem = body
    except ValueError:
        pass
    message = problem["detail"] if problem else (text.strip()[:500] or "HTTP %d" % error.code)
    return CorpdataError(_KINDS.get(error.code, "unexpected"), message, error.code, problem, error.headers)


class Client:
    """The corpdata API.

    base_url: the server, e.g. https://corpdata.example.com (no trailing /api/v1).
    api_key: an API key from the console, or the public test token.
    max_retries: retries after 429, 502, 503, 504 or a failed connection (0: none).
    max_wait_seconds: longest Retry-After waited for; a longer one raises at once.
    backoff, max_backoff: first and longest wait (seconds) when the server gives no Retry-After.
    timeout: seconds each attempt may wait for the server; past it, a CorpdataError of kind timeout.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        max_retries: int = 3,
        max_wait_seconds: float = 60,
        backoff: float = 0.5,
        max_backoff: float = 10,
        timeout: float = 30,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.max_retries = max_retries
        self.max_wait_seconds = max_wait_seconds
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.timeout = timeout
        self._sleep = sleep
        self._datasets: Optional[List[str]] = None

    # The calls -----------------------------------------------------------------------------

    def datasets(self) -> List[str]:
        """The datasets the server serves (read once from its OpenAPI document, free)."""
        if self._datasets is None:
            self._datasets = datasets_of(self._get("/api/v1/openapi.json", {}).data)
        return list(self._datasets)

    def dataset(self, name: str, **query: Any) -> Answer:
        """Every record of a company-period in a dataset (see datasets()); a 204 gives no_data and []."""
        return self._get("/api/v1/" + name, query, empty=[])

    def __getattr__(self, attribute: str) -> Callable[..., Answer]:
        # Any dataset the server serves has its call by name (net-income: net_income(**query)),
        # so a dataset added to the server needs no edit here; anything else is an AttributeError.
        name = attribute.replace("_", "-")
        if attribute.startswith("_") or name not in self.datasets():
            raise AttributeError(attribute)
        return lambda **query: self.dataset(name, **query)

    def revenues(self, **query: Any) -> Answer:
        """Every revenue data point of a company-period, e.g. revenues(ticker="AAPL", reporting_period=-1)."""
        return self.dataset("revenues", **query)

    def ghg_emissions(self, **query: Any) -> Answer:
        """Every emission figure (Scope 1, 2, 3 in tCO2e) of a company-period."""
        return self.dataset("ghg-emissions", **query)

    def ghg_intensity(self, **query: Any) -> Answer:
        """Emissions per USD million of revenue, per scope, of a company-period."""
        return self.dataset("ghg-intensity", **query)

    def fundamentals(self, **query: Any) -> Answer:
        """Every statement item of a company-period the account may buy, in one call, e.g.
        fundamentals(ticker="AAPL", reporting_period=-1): data is {"company_id", "reporting_period",
        "items": {"revenues": [...], "net-income": [...], ...}}, an item without a figure []. Billed as
        a batch of the single calls it contains, all or nothing; credits["cost"] is the sum."""
        return self._get("/api/v1/fundamentals", query)

    def periods(self, dataset: str = "revenues", **query: Any) -> Answer:
        """The periods a company has data for in a dataset, most recent first (free)."""
        return self._get("/api/v1/%s/periods" % dataset, query)

    def history(self, dataset: str = "revenues", **query: Any) -> Answer:
        """Every available period of a company in a range, e.g. history("revenues", ticker="MSFT", last=3)
        or from_=2021, to=2024 (from is a Python keyword: write from_). Billed per company-period, all or nothing."""
        if "from_" in query:
            query["from"] = query.pop("from_")
        return self._get("/api/v1/%s/history" % dataset, query)

    def batch(self, dataset: str, jobs: List[Dict[str, Any]]) -> Answer:
        """Up to 100 jobs ({identifier..., "reporting_period"}) of a dataset in one call: data is the list of
        results in order, each {"status": 200|204|404, "data"|"detail": ...}. Billed per job, all or nothing."""
        answer = self._send("/api/v1/%s/batch" % dataset, {}, body={"jobs": jobs})
        answer.data = answer.data["results"]
        return answer

    def resolve(self, jobs: List[Dict[str, Any]]) -> Answer:
        """Up to 100 identifiers (ticker, mic_code, isin, lei, cik, name) to company records, in order;
        1 credit per job that resolves."""
        answer = self._send("/api/v1/companies/resolve", {}, body={"jobs": jobs})
        answer.data = answer.data["results"]
        return answer

    def search_companies(self, query: str) -> Answer:
        return self._get("/api/v1/companies/search", {"query": query})

    def list_companies(self, etag: Optional[str] = None) -> Answer:
        """Every company. Give the etag of the last answer: data is None (304, free) while unchanged."""
        return self._get("/api/v1/companies/list", {}, headers={"If-None-Match": etag} if etag else None)

    def account(self) -> Answer:
        """The calling key's account: balance and subscription (free)."""
        return self._get("/api/v1/account", {})

    def provenance(self, point_id: str) -> Answer:
        """Where a data point comes from; values only if the account bought its company-period (free)."""
        return self._get("/api/v1/trace/" + urllib.parse.quote(point_id, safe=""), {})

    # The machinery -------------------------------------------------------------------------

    def _get(
        self,
        path: str,
        query: Dict[str, Any],
        empty: Any = None,
        headers: Optional[Dict[str, str]] = None,
    ) -> Answer:
        return self._send(path, query, empty=empty, headers=headers)

    def _send(
        self,
        path: str,
        query: Dict[str, Any],
        empty: Any = None,
        headers: Optional[Dict[str, str]] = None,
        body: Any = None,
    ) -> Answer:
        """A GET, or with a body a POST of it as JSON (the batch operations)."""
        url = self.base_url + path
        if query:
            url += "?" + urllib.parse.urlencode(query)
        request = urllib.request.Request(
            url,
            data=None if body is None else json.dumps(body).encode("utf-8"),
            method="GET" if body is None else "POST",
            headers={
                "Authorization": "Bearer " + self.api_key,
                # JSON for answers, problem details for refusals (RFC 9457).
                "Accept": "application/json, application/problem+json",
                **({} if body is None else {"Content-Type": "application/json"}),
                **(headers or {}),
            },
        )
        attempt = 0
        while True:
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    return self._answer(response, response.read(), empty)
            except urllib.error.HTTPError as error:
                if error.code == 304:
                    return Answer(None, _credits(error.headers), error.headers.get("X-Request-Id"),
                                  etag=error.headers.get("ETag"))
                refusal = _error_of(error)
                wait = refusal.retry_after
                if (
                    error.code not in RETRIED_STATUSES
                    or attempt >= self.max_retries
                    or (wait is not None and wait > self.max_wait_seconds)
                ):
                    raise refusal from None
                self._sleep(wait if wait is not None else self._backoff(attempt))
            except (socket.timeout, TimeoutError) as error:
                raise CorpdataError("timeout", "No answer from %s in time." % self.base_url) from error
            except (urllib.error.URLError, http.client.HTTPException, ConnectionError) as error:
                reason = getattr(error, "reason", error)
                if isinstance(reason, (socket.timeout, TimeoutError)):
                    raise CorpdataError("timeout", "No answer from %s in time." % self.base_url) from error
                if attempt >= self.max_retries:
                    raise CorpdataError("network", "Could not reach %s (%s)." % (self.base_url, reason)) from error
                self._sleep(self._backoff(attempt))
            attempt += 1

    def _backoff(self, attempt: int) -> float:
        """Exponential backoff with equal jitter: half the doubled delay for sure, half at random."""
        ceiling = min(self.max_backoff, self.backoff * 2**attempt)
        return ceiling / 2 + random.uniform(0, ceiling / 2)

    @staticmethod
    def _answer(response: Any, body: bytes, empty: Any) -> Answer:
        no_data = response.status == 204
        if no_data:
            data = empty
        else:
            data = json.loads(body.decode("utf-8"))
        return Answer(
            data,
            _credits(response.headers),
            response.headers.get("X-Request-Id"),
            no_data=no_data,
            test_mode=response.headers.get("X-Test-Mode") == "true",
            etag=response.headers.get("ETag"),
        )


class WebhookVerificationError(ValueError):
    """A delivery that is not the server's, or not now's: refuse it (answer 4xx) and read nothing of it."""


def verify_webhook(
    secret: str,
    headers: Mapping[str, str],
    body: Union[bytes, str],
    tolerance: float = 300,
    now: Optional[float] = None,
) -> Dict[str, Any]:
    """Checks a delivery as the Standard Webhooks specification says and returns its event.

    `webhook-signature` holds one or more `v1,<base64 HMAC-SHA256>` of `id.timestamp.body`, keyed
    with the bytes of the endpoint's secret (the base64 after `whsec_`); the timestamp must be
    within `tolerance` seconds of now. `body` is the raw request body, as received.

        message = verify_webhook(os.environ["CORPDATA_WEBHOOK_SECRET"], request.headers, request.get_data())
    """
    lowered = {k.lower(): v for k, v in headers.items()}
    msg_id = lowered.get("webhook-id", "")
    timestamp = lowered.get("webhook-timestamp", "")
    signatures = lowered.get("webhook-signature", "")
    if not msg_id or not timestamp or not signatures:
        raise WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature")
    current = time.time() if now is None else now
    if not timestamp.isdigit() or abs(current - int(timestamp)) > tolerance:
        raise WebhookVerificationError("webhook-timestamp is malformed or too far from now")
    raw = body if isinstance(body, bytes) else body.encode("utf-8")
    key = base64.b64decode(secret[len("whsec_"):] if secret.startswith("whsec_") else secret)
    mac = hmac.new(key, msg_id.encode() + b"." + timestamp.encode() + b"." + raw, hashlib.sha256).digest()
    expected = "v1," + base64.b64encode(mac).decode()
    # Several signatures may be sent while a secret is rotated: one that matches is enough.
    if not any(hmac.compare_digest(c.encode(), expected.encode()) for c in signatures.split(" ")):
        raise WebhookVerificationError("no webhook-signature matches the secret")
    return json.loads(raw.decode("utf-8"))
