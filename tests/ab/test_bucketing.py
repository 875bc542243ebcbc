"""Bucketing stays true at scale: over 100,000 generated profile ids, the share of each
variation stays within statistical bounds of its weight (50/50, 10/90, 33/33/34), and the
variation the library picks (through the Python binding) is, for every id, the one the rule
gives with an independent MD5 (Python's hashlib): sort by (weight, variation_id); bucket =
last 8 bytes of md5("<placement_audience_version_id>-<profile_id>"), big-endian, mod 100; the
first variation whose cumulative weight exceeds the bucket wins."""
import hashlib
import math
import multiprocessing
import os
import random
import uuid

import pytest
from scipy import stats

PROFILES = 100_000
WEIGHTS = {"half": [50, 50], "tenth": [10, 90], "thirds": [33, 33, 34]}


def placement(placement_id, weights):
    return {"ab_test_name": f"{placement_id}_test", "placement_audience_version_id": f"{placement_id}-all-users-v1",
            "variations": [{"variation_id": f"{placement_id}-{i}", "paywall_id": f"pw-{i}", "weight": weight, "products": []}
                           for i, weight in enumerate(weights)]}


BUNDLE = {"format_version": 1, "response_created_at": 1,
          "placements": {pid: placement(pid, weights) for pid, weights in WEIGHTS.items()}}


def profile_ids():
    """100,000 UUID v4 profile ids, the same every run."""
    rng = random.Random(20241122)
    return [str(uuid.UUID(int=rng.getrandbits(128), version=4)) for _ in range(PROFILES)]


def expected_variation(placement_id, profile_id):
    """The rule, computed with hashlib's MD5, independently of the library's own."""
    spec = BUNDLE["placements"][placement_id]
    digest = hashlib.md5(f"{spec['placement_audience_version_id']}-{profile_id}".encode()).digest()
    bucket = int.from_bytes(digest[8:], "big") % 100
    cumulative = 0
    for variation in sorted(spec["variations"], key=lambda v: (v["weight"], v["variation_id"])):
        cumulative += variation["weight"]
        if bucket < cumulative:
            return variation["variation_id"]
    raise AssertionError("weights do not sum to 100")


def binding_variations(ids):
    """{placement: [variation per id]} as the library chooses them, one client per profile."""
    import paywire
    chosen = {pid: [] for pid in WEIGHTS}
    for profile_id in ids:
        with paywire.Client({"profile_id": profile_id, "fallback": {"bundle": BUNDLE}}) as client:
            for pid in WEIGHTS:
                chosen[pid].append(client.call("get_paywall", {"placement_id": pid})["variation_id"])
    return chosen


@pytest.fixture(scope="module")
def ids():
    return profile_ids()


@pytest.fixture(scope="module")
def library_choices(ids):
    """The binding's choices for every id, on one worker process per core."""
    workers = max(1, min(4, os.cpu_count() or 1))
    chunks = [ids[i::workers] for i in range(workers)]
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        parts = pool.map(binding_variations, chunks)
    choices = {pid: [None] * len(ids) for pid in WEIGHTS}
    for worker, part in enumerate(parts):
        for pid in WEIGHTS:
            choices[pid][worker::workers] = part[pid]
    return choices


def within_bounds(counts, weights, total):
    """Each variation's count within 4 standard deviations of n·w (binomial), and Pearson's
    chi-square against the weights not significant at 0.001."""
    for count, weight in zip(counts, weights):
        share = weight / 100
        if abs(count - total * share) > 4 * math.sqrt(total * share * (1 - share)):
            return False
    return stats.chisquare(counts, [total * w / 100 for w in weights]).pvalue > 0.001


@pytest.mark.parametrize("placement_id", WEIGHTS)
def test_the_binding_and_an_independent_md5_agree_for_every_id(ids, library_choices, placement_id):
    expected = [expected_variation(placement_id, profile_id) for profile_id in ids]
    disagreements = [(pid, e, g) for pid, e, g in zip(ids, expected, library_choices[placement_id]) if e != g]
    assert not disagreements, disagreements[:5]


@pytest.mark.parametrize("placement_id", WEIGHTS)
def test_shares_stay_within_statistical_bounds_of_the_weights(library_choices, placement_id):
    weights = WEIGHTS[placement_id]
    chosen = library_choices[placement_id]
    counts = [chosen.count(f"{placement_id}-{i}") for i in range(len(weights))]
    assert sum(counts) == PROFILES
    assert within_bounds(counts, weights, PROFILES), (counts, weights)


def test_the_bounds_catch_a_one_point_bias():
    # 51/49 where 50/50 was asked: 1,000 off at n = 100,000 is over 6 standard deviations.
    assert not within_bounds([51_000, 49_000], [50, 50], PROFILES)
    assert within_bounds([50_100, 49_900], [50, 50], PROFILES)
