"""Mistakes a newcomer makes with the server are answered with what to do (issue 60): an unknown
placement on a device route is a JSON 404 naming the id a typo away (the library's own rule) or
the route of the other kind."""


def test_an_unknown_placement_is_a_json_404_naming_what_was_meant(devserver):
    status, headers, body = devserver.call("GET", "/v1/placements/onbaording", operator=False)
    assert status == 404 and headers["content-type"].startswith("application/json"), (status, headers)
    assert body["error"]["code"] == "not_found" and body["error"]["placement_id"] == "onbaording"
    assert body["error"]["did_you_mean"] == "onboarding" and "did you mean 'onboarding'?" in body["error"]["message"]
    # An onboarding asked for as a paywall placement, and the other way round: the route to ask.
    status, _, body = devserver.call("GET", "/v1/placements/welcome", operator=False)
    assert status == 404 and "/v1/onboardings/welcome" in body["error"]["message"] and "did_you_mean" not in body["error"]
    status, _, body = devserver.call("GET", "/v1/onboardings/onboarding", operator=False)
    assert status == 404 and "/v1/placements/onboarding" in body["error"]["message"]
    status, _, body = devserver.call("GET", "/v1/onboardings/welcom", operator=False)
    assert status == 404 and body["error"]["did_you_mean"] == "welcome"
    # Nothing near: the id alone, no guess.
    status, _, body = devserver.call("GET", "/v1/placements/checkout-v2", operator=False)
    assert status == 404 and body["error"]["placement_id"] == "checkout-v2" and "did_you_mean" not in body["error"]
    assert devserver.call("GET", "/v1/placements/onboarding", operator=False)[0] == 200
