"""The malleable family as the engine sees it: registration, validation, summary, saturation."""

import numpy as np
import pytest

from sweep.families import Point, StopRule, family_of

WORKLOAD = {"name": "w", "kind": "malleable", "parallelism": "dist1", "demand_mean": 1000.0,
            "demand_scv": 4.0, "demand_growth": "n", "demand_normalise": True,
            "speedup": {"model": "eq8", "delta": 50.0}}


SHORT = StopRule(jobs=2000, warmup=200)


def point(policy="eqs", load=0.6, stop=SHORT, **options):
    return Point(policy={"name": policy, **options}, workload=WORKLOAD, system={"processors": 128},
                 load=load, stop=stop)


def test_registered_with_the_policies_of_the_paper():
    family = family_of("eqs")
    assert family.name == "malleable"
    assert {"eqs", "eqs_avg", "eqs_pws", "fb_pws", "fb_asp"} <= set(family.policies)


def test_same_rng_same_result():
    family = family_of("eqs")
    one = family.simulate(point("eqs"), np.random.default_rng(5)).summary
    two = family.simulate(point("eqs"), np.random.default_rng(5)).summary
    three = family.simulate(point("eqs"), np.random.default_rng(6)).summary
    assert one == two
    assert one["mean_response"] != three["mean_response"]


def test_past_saturation_stops_early_and_says_so():
    family = family_of("fb_pws")
    stop = StopRule(jobs=100_000, warmup=1000, max_in_system=300)
    result = family.simulate(point("fb_pws", load=1.5, stop=stop), np.random.default_rng(2))
    assert result.summary["saturated"]
    assert result.summary["jobs"] < 100_000


@pytest.mark.parametrize(("change", "message"), [
    ({"policy": "eqs", "quantum": 5.0},
     "policy 'eqs' has no option 'quantum'; allowed: fractional, repartition_overhead, repartition_period"),
    ({"policy": "eqs", "repartition_period": -1},
     "policy.repartition_period must be a number of seconds >= 0"),
    ({"policy": "fb_pws", "quantum": 0.0}, "policy.quantum must be a number of seconds > 0, got 0.0"),
    ({"policy": "eqs", "fractional": "yes"}, "policy.fractional must be true or false"),
    ({"load": -0.1}, "load must be a number > 0"),
])
def test_bad_options_name_themselves(change, message):
    policy = change.pop("policy", "eqs")
    with pytest.raises(ValueError, match="^" + message.replace("(", r"\(")):
        family_of(policy).validate(point(policy, **change))


def test_bad_system_names_itself():
    bad = Point(policy={"name": "eqs"}, workload=WORKLOAD, system={"processors": 12.5}, load=0.5,
                stop=StopRule(jobs=2000, warmup=0))
    with pytest.raises(ValueError, match="^system.processors must be a positive integer, got 12.5"):
        family_of("eqs").validate(bad)
