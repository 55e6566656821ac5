"""Tests of corpdata.py against a live server (run by test/client.python.test.ts).

The environment names the server (CORPDATA_URL), the test token (CORPDATA_TEST_TOKEN), a key of an
account with credits and the revenues subscription (CORPDATA_KEY), a proxy in front of the server
that fails on demand (CORPDATA_FLAKY_URL, failures planned by POSTing to /__flakes) and an address
where nothing listens (CORPDATA_CLOSED_URL), and the subscription each dataset needs (CORPDATA_SUBSCRIPTIONS, JSON).
"""

import json
import os
import sys
import time
import unittest
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from corpdata import Client, CorpdataError  # noqa: E402

URL = os.environ["CORPDATA_URL"]
TEST_TOKEN = os.environ["CORPDATA_TEST_TOKEN"]
KEY = os.environ["CORPDATA_KEY"]
FLAKY_URL = os.environ["CORPDATA_FLAKY_URL"]
CLOSED_URL = os.environ["CORPDATA_CLOSED_URL"]
#: The subscription each dataset needs, from the server's registry: {"revenues": "revenues", ...}.
SUBSCRIPTIONS = json.loads(os.environ["CORPDATA_SUBSCRIPTIONS"])


def flakes(*planned):
    """Makes the next requests to the flaky proxy fail as listed."""
    request = urllib.request.Request(FLAKY_URL + "/__flakes", data=json.dumps(planned).encode(), method="POST")
    urllib.request.urlopen(request).close()


class Refusal:
    def __init__(self, test):
        self.test = test
        self.error = None

    def __enter__(self):
        return self

    def __exit__(self, kind, error, traceback):
        self.test.assertIsInstance(error, CorpdataError)
        self.error = error
        return True


class TheDatasets(unittest.TestCase):
    def test_are_those_of_the_served_document(self):
        with urllib.request.urlopen(URL + "/api/v1/openapi.json") as response:
            paths = json.load(response)["paths"]
        served = [p[len("/api/v1/"):-len("/periods")] for p in paths if p.endswith("/periods")]
        corpdata = Client(URL, TEST_TOKEN, max_retries=0)
        self.assertEqual(corpdata.datasets(), served)
        for name in served:
            answer = getattr(corpdata, name.replace("-", "_"))(ticker="MOCK204", reporting_period=-1)
            self.assertTrue(answer.no_data, name)
        with self.assertRaises(AttributeError):
            corpdata.not_a_dataset


class WithTheTestToken(unittest.TestCase):
    def setUp(self):
        self.corpdata = Client(URL, TEST_TOKEN, max_retries=0)

    def test_mock_data_marked_as_such_and_free(self):
        answer = self.corpdata.revenues(ticker="ANY", reporting_period=-1)
        self.assertGreater(len(answer.data), 0)
        self.assertEqual((answer.no_data, answer.test_mode, answer.credits["cost"]), (False, True, 0))

    def test_fundamentals_from_each_item_mock(self):
        statement = self.corpdata.fundamentals(ticker="ANY", reporting_period=-1)
        self.assertEqual((statement.test_mode, statement.credits["cost"]), (True, 0))
        self.assertEqual(statement.data["items"]["revenues"],
                         self.corpdata.revenues(ticker="ANY", reporting_period=-1).data)
        with Refusal(self) as unknown:
            self.corpdata.fundamentals(ticker="MOCK404", reporting_period=-1)
        self.assertEqual((unknown.error.kind, unknown.error.status), ("not_found", 404))

    def test_204_is_no_data_on_every_dataset(self):
        for name in self.corpdata.datasets():
            answer = self.corpdata.dataset(name, ticker="MOCK204", reporting_period=-1)
            self.assertEqual((answer.data, answer.no_data), ([], True), name)

    def test_problem_details_of_402_403_404(self):
        for name in self.corpdata.datasets():
            with Refusal(self) as forbidden:
                self.corpdata.dataset(name, ticker="MOCK403", reporting_period=-1)
            e = forbidden.error
            self.assertEqual((e.kind, e.status, e.title), ("subscription_required", 403, "Subscription required"))
            self.assertEqual(e.required_subscription, SUBSCRIPTIONS[name])
            self.assertEqual(e.message, e.detail)
            self.assertEqual(e.problem["instance"], "urn:uuid:" + e.request_id)
            with Refusal(self) as unknown:
                self.corpdata.dataset(name, ticker="MOCK404", reporting_period=-1)
            e = unknown.error
            self.assertEqual((e.kind, e.status, e.detail, e.did_you_mean),
                             ("not_found", 404, "No company matches the given ticker.", []))
            with Refusal(self) as poor:
                self.corpdata.dataset(name, ticker="MOCK402", reporting_period=-1)
            self.assertEqual((poor.error.kind, poor.error.credits["balance"]), ("insufficient_credits", 0))


class WithAKey(unittest.TestCase):
    def setUp(self):
        self.corpdata = Client(URL, KEY, max_retries=0)

    def test_every_call(self):
        self.assertEqual(self.corpdata.account().data["subscription"], "revenues")
        periods = self.corpdata.periods(ticker="BETA")
        self.assertEqual(periods.data["reporting_periods"], [2024, 2023, 2022])
        self.assertEqual(periods.credits["cost"], 0)
        revenues = self.corpdata.revenues(ticker="BETA", reporting_period=2023)
        self.assertEqual(revenues.data[0]["reporting_period"], 2023)
        self.assertEqual(revenues.test_mode, False)
        found = self.corpdata.search_companies("beta")
        self.assertEqual(found.data[0]["ticker"], "BETA")
        point = revenues.data[0]["traceability_source_url"].rsplit("/", 1)[1]
        self.assertEqual(self.corpdata.provenance(point).data["values"]["value"], revenues.data[0]["value"])
        listing = self.corpdata.list_companies()
        self.assertGreater(len(listing.data), 5)
        again = self.corpdata.list_companies(listing.etag)
        self.assertEqual((again.data, again.credits["cost"]), (None, 0))

    def test_fundamentals(self):
        # Gamma's 2023: a revenue in GBP and no other item (each empty item billed 1).
        statement = self.corpdata.fundamentals(ticker="GAMA", reporting_period=2023)
        others = [item for item in statement.data["items"] if item != "revenues"]
        self.assertGreaterEqual(len(others), 11)
        self.assertEqual((statement.data["reporting_period"], statement.credits["cost"]), (2023, 25 + len(others)))
        self.assertEqual([r["original_value"] for r in statement.data["items"]["revenues"]], [1500000000])
        for item in others:
            self.assertEqual(statement.data["items"][item], [])
        with Refusal(self) as bad:
            self.corpdata.fundamentals(ticker="GAMA", reporting_period=1999)
        self.assertEqual((bad.error.kind, bad.error.param), ("bad_request", "reporting_period"))

    def test_history_batch_and_resolve(self):
        history = self.corpdata.history("revenues", ticker="ALPH", from_=2022, to=2023)
        self.assertEqual([p["reporting_period"] for p in history.data["periods"]], [2023, 2022])
        self.assertEqual(history.credits["cost"], 50)
        batch = self.corpdata.batch("revenues", [
            {"ticker": "ALPH", "reporting_period": 2023},
            {"ticker": "NOPE", "reporting_period": 2023},
        ])
        self.assertEqual([r["status"] for r in batch.data], [200, 404])
        self.assertEqual(batch.credits["cost"], 1)
        resolved = self.corpdata.resolve([{"ticker": "ALPH"}, {"ticker": "NOPE"}])
        self.assertEqual([r["status"] for r in resolved.data], [200, 404])
        self.assertEqual(resolved.credits["cost"], 1)
        with Refusal(self) as bad:
            self.corpdata.batch("revenues", [{"ticker": "ALPH", "reporting_period": 2023}, {"ticker": "ALPH"}])
        self.assertEqual((bad.error.kind, bad.error.param), ("bad_request", "jobs[1].reporting_period"))

    def test_problem_details_of_400_401_404(self):
        with Refusal(self) as bad:
            self.corpdata.revenues(ticker="BETA", reporting_period=1999)
        self.assertEqual((bad.error.kind, bad.error.param), ("bad_request", "reporting_period"))
        with Refusal(self) as anonymous:
            Client(URL, "not.a.key").account()
        self.assertEqual((anonymous.error.kind, anonymous.error.status), ("unauthorized", 401))
        with Refusal(self) as period:
            self.corpdata.revenues(ticker="BETA", reporting_period=2020)
        self.assertEqual((period.error.kind, period.error.available_periods), ("not_found", [2024, 2023, 2022]))
        with Refusal(self) as unknown:
            self.corpdata.revenues(ticker="BETAX", reporting_period=-1)
        self.assertIsInstance(unknown.error.did_you_mean, list)


class WhenThingsGoWrong(unittest.TestCase):
    def client(self, **options):
        return Client(FLAKY_URL, TEST_TOKEN, **{"backoff": 0.02, "max_backoff": 0.1, **options})

    def test_retries_502_503_504_429_and_resets(self):
        flakes({"status": 502}, {"status": 503}, {"status": 504}, {"status": 429}, {"reset": True})
        answer = self.client(max_retries=5).revenues(ticker="ANY", reporting_period=-1)
        self.assertGreater(len(answer.data), 0)

    def test_honours_retry_after(self):
        flakes({"status": 429, "retryAfter": "1"})
        started = time.monotonic()
        self.client().account()
        self.assertGreaterEqual(time.monotonic() - started, 0.95)
        flakes({"status": 503, "retryAfter": "120"})
        with Refusal(self) as busy:
            self.client(max_wait_seconds=60).account()
        self.assertEqual((busy.error.kind, busy.error.retry_after), ("unavailable", 120))

    def test_gives_up_past_max_retries(self):
        flakes({"status": 502}, {"status": 502}, {"status": 502})
        with Refusal(self) as gateway:
            self.client(max_retries=2).account()
        self.assertEqual((gateway.error.kind, gateway.error.status, gateway.error.message),
                         ("bad_gateway", 502, "Flaky answer 502."))

    def test_network_when_nothing_listens(self):
        with Refusal(self) as refused:
            Client(CLOSED_URL, TEST_TOKEN, max_retries=2, backoff=0.01).account()
        self.assertEqual((refused.error.kind, refused.error.status), ("network", 0))

    def test_timeout(self):
        flakes({"delayMs": 3000})
        started = time.monotonic()
        with Refusal(self) as late:
            self.client(timeout=0.3).account()
        self.assertEqual(late.error.kind, "timeout")
        self.assertLess(time.monotonic() - started, 2)


if __name__ == "__main__":
    unittest.main(verbosity=2)
