"""New profile credentials are limited per client address. Any request naming a profile no
device holds yet mints one (a profile, its credential row), and so does each new visitor of
the web paywall and each identity that hands a customer's profile over: with the app key alone,
440 credential rows a second were minted from one address with no limit. The production server
now hands one address 60 a minute (`--new-credentials-per-address`), then answers `429
rate_limited` with `Retry-After` before anything is stored; a device or a browser that already
holds its credential is not counted."""
import time

import pytest

from attacker import Account, Visitor, segment, unique
from conftest import Target, shop_arguments


@pytest.fixture(params=["production, by default", "development, when told"])
def fresh(request, tmp_path):
    """A shop of its own (this address's allowance is spent here): the production binary with
    the default, or the development server told the same (it mints freely unless told)."""
    production = request.param.startswith("production")
    extra = shop_arguments(tmp_path) + ([] if production else ["--new-credentials-per-address", "60"])
    server = Target("production" if production else "development", tmp_path, *extra)
    yield server
    server.stop()


def first_request(account):
    return account.call("GET", f"/v1/profiles/{segment(account.id)}")


def until_limited(attempt, at_most=200):
    """Calls `attempt()` (a new credential each) until it is refused: the answers before, the
    refusal, and the seconds it took (the allowance comes back at one a second meanwhile)."""
    start, served = time.monotonic(), []
    for _ in range(at_most):
        answer = attempt()
        if answer[0] == 429:
            return served, answer, time.monotonic() - start
        served.append(answer)
    raise AssertionError(f"{at_most} new credentials from one address, none refused")


def within_the_allowance(count, seconds, spent=0):
    """A minute's worth (60) at once, one a second after that."""
    return 60 - spent <= count <= 60 - spent + int(seconds) + 1


def limited(answer):
    status, headers, body = answer
    return status == 429 and body["error"]["code"] == "rate_limited" and int(headers["retry-after"]) >= 1


def test_an_address_minting_profiles_waits_after_a_minutes_worth(fresh):
    devices = []

    def mint():
        devices.append(Account(fresh, unique("mint")))
        return first_request(devices[-1])

    served, refused, seconds = until_limited(mint)
    assert all(answer[0] == 404 for answer in served) and all(device.credential for device in devices[:-1])
    assert within_the_allowance(len(served), seconds), (len(served), seconds)
    assert limited(refused) and devices[-1].credentials == [], "no credential past the allowance"
    # The devices that hold their credentials are not counted: they are served as ever.
    assert all(first_request(device)[0] == 404 for device in devices[:5])
    assert devices[0].credentials == [devices[0].credential]


def test_new_web_visitors_past_the_allowance_get_a_page_saying_to_wait(fresh):
    returning = Visitor(fresh)
    served, refused, seconds = until_limited(lambda: (returning if returning.cookie is None else Visitor(fresh)).request("GET", "/web/onboarding"))
    assert all(answer[0] == 200 for answer in served) and within_the_allowance(len(served), seconds), (len(served), seconds)
    status, headers, page = refused
    assert int(headers["retry-after"]) >= 1 and "Try again" in page and "set-cookie" not in headers
    assert returning.request("GET", "/web/onboarding")[0] == 200, "a visitor with its cookie is no new credential"


def test_identities_handing_a_profile_over_spend_the_same_allowance(fresh):
    account = unique("account")
    assert Account(fresh, unique("customer")).identify(account)[0] == 200
    second = Account(fresh, unique("second-device"))
    assert second.identify(account)[0] == 200 and len(second.credentials) == 1, "the customer's profile handed over"
    # Each identity again hands the customer's profile over: a credential each time (and the
    # asking profile, never opened with its own, mints again), until the allowance is spent.
    served, refused, seconds = until_limited(lambda: second.identify(account))
    assert limited(refused)
    assert 1 <= len(served) <= 60 - 3 + int(seconds) + 1, (len(served), seconds)
    # One credential an identity served (the customer's profile, handed over), and on the
    # refusal at most the asking profile's, minted by its door before the identity looked.
    assert len(second.credentials) - 1 - len(served) in (0, 1), "a profile was handed over past the allowance"
