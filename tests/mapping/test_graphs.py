"""Task graphs and system graphs: the STG set's published figures, generators, routes, bad input."""

from __future__ import annotations

import fnmatch
import json
import tomllib

import numpy as np
import pytest

from sweep.config.compose import load_option
from sweep.testing.naive import mapping as naive
from sweep.workloads.task_graphs import (
    SHIPPED,
    SystemGraph,
    TaskGraph,
    TaskGraphError,
    critical_path,
    random_dag,
    random_system,
    read_edge_list,
    read_json_graph,
    read_stg,
    read_system,
    routes,
    stg_statistics,
    topology,
)
from tests.mapping._util import EXAMPLE, ROOT, line

#: Tobita & Kasahara (2002), the STG set's figures for its three application graphs:
#: tasks, edges (without the dummies), CP length, parallelism = total work / CP length.
PUBLISHED = {"robot": (88, 131, 569, 4.363796), "sparse": (96, 67, 122, 15.868853),
             "fpppp": (334, 1145, 1062, 6.712806)}


@pytest.mark.parametrize("name", list(PUBLISHED))
def test_stg_graphs_reproduce_the_published_critical_path_and_parallelism(name):
    path = SHIPPED / f"{name}.stg"
    graph = read_stg(path)
    tasks, edges, cp, parallelism = PUBLISHED[name]
    assert (graph.tasks, graph.edges) == (tasks, edges)
    assert critical_path(graph) == cp == stg_statistics(path)["CP Length"]
    # printed to 6 decimals; the set's last digit is not always round-half-even of work / CP
    assert graph.weight.sum() / critical_path(graph) == pytest.approx(parallelism, abs=1e-6)
    assert critical_path(graph) == naive.critical_path(graph, graph.weight.tolist())


def test_stg_accepts_a_count_with_or_without_the_dummies(tmp_path):
    body = "  0 0 0\n  1 3 1 0\n  2 4 1 1\n  3 0 1 2\n"
    for first in ("2", "4"):
        (tmp_path / "g.stg").write_text(first + "\n" + body)
        graph = read_stg(tmp_path / "g.stg")
        assert graph.tasks == 2 and graph.src.tolist() == [0] and graph.dst.tolist() == [1]


@pytest.mark.parametrize("text, where, what", [
    ("3\n0 0 0\n1 2 1 0\n2 2 1 9\n3 0 1 2\n4 0 1 3\n", ":4:", "missing predecessor 9"),
    ("2\n0 0 0\n1 -2 1 0\n2 0 1 1\n3 0 1 2\n", ":3:", "negative weight"),
    ("2\n0 0 0\n1 2 1 2\n2 1 1 1\n3 0 1 2\n", ":3:", ">= itself (a cycle)"),
    ("task graph\n", ":1:", "not an STG line"),
    ("2\n0 0 0\n1 2 2 0\n", ":3:", "npred preds"),
    ("5\n0 0 0\n1 2 1 0\n", "", "first line says 5 tasks"),
])
def test_bad_stg_files_give_one_line_naming_file_and_line(tmp_path, text, where, what):
    path = tmp_path / "bad.stg"
    path.write_text(text)
    with pytest.raises(TaskGraphError) as error:
        read_stg(path)
    message = str(error.value)
    assert "\n" not in message and str(path) + where in message and what in message


def test_json_graphs_plain_and_cost_matrix(tmp_path):
    path = tmp_path / "g.json"
    path.write_text(json.dumps({"weights": [1, 2, 3], "edges": [[0, 1, 4], [1, 2, 5]]}))
    graph = read_json_graph(path)
    assert graph.weight.tolist() == [1, 2, 3] and graph.data.tolist() == [4, 5] and graph.cost is None
    example = read_json_graph(EXAMPLE)
    assert example.cost.shape == (10, 3) and example.edges == 15 and example.src.min() == 0


@pytest.mark.parametrize("doc, what", [
    ({"weights": [1, 1], "edges": [[0, 1, 1], [1, 0, 1]]}, "cycle"),
    ({"weights": [1, 1], "edges": [[0, 2, 1]]}, "outside 0..1"),
    ({"weights": [1, -1], "edges": []}, "negative"),
    ({"weights": [1, 1], "edges": [[0, 1, -3]]}, "negative"),
    ({"tasks": [1]}, "not a task graph"),
])
def test_bad_json_graphs(tmp_path, doc, what):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(TaskGraphError, match=what) as error:
        read_json_graph(path)
    assert str(error.value).startswith(str(path))


def test_random_dag_is_layered_reproducible_and_sized():
    graphs = [random_dag(np.random.default_rng(5), 300, fat=0.5, density=0.3, jump=2) for _ in range(2)]
    a, b = graphs
    assert a.tasks == 300 and np.array_equal(a.src, b.src) and np.array_equal(a.weight, b.weight)
    assert set(np.unique(a.weight)) <= {1.0, 2.0, 3.0, 4.0, 5.0} and np.all(a.src < a.dst)
    entries = set(range(300)) - set(a.dst.tolist())
    assert 1 <= len(entries) <= 2 * 300 ** 0.5  # the first level only
    assert a.weight.mean() == pytest.approx(3.0, abs=0.3)


def test_topologies_have_the_textbook_link_counts():
    assert topology("mesh", (4, 4)).links == 24
    assert topology("torus", (4, 4)).links == 32
    assert topology("hypercube", (4,)).links == 32
    assert topology("full", (6,)).links == 15
    assert topology("star", (6,)).links == 5
    assert routes(topology("hypercube", (4,))).hops.max() == 4
    assert routes(topology("torus", (4, 4))).hops.max() == 4


def test_random_system_is_connected_with_weights_in_1_to_5():
    system = random_system(np.random.default_rng(3), 100, degree=4.0)
    assert system.processors == 100 and 150 < system.links < 260
    assert set(np.unique(system.speed)) <= {1.0, 2.0, 3.0, 4.0, 5.0}
    assert set(np.unique(system.bandwidth)) <= {1.0, 2.0, 3.0, 4.0, 5.0}


@pytest.mark.parametrize("seed", range(6))
def test_routes_match_the_naive_recursive_rule(seed):
    system = random_system(np.random.default_rng(seed), 7, degree=2.5)
    table = routes(system)
    for s in range(7):
        for d in range(7):
            if s != d:
                channels, width = naive.route(system, s, d)
                assert table.route(s, d).tolist() == channels
                assert table.bandwidth[s, d] == width and table.hops[s, d] == len(channels)


def test_a_route_takes_its_bottleneck_bandwidth():
    table = routes(line([1, 1, 1], [4, 2]))
    assert table.bandwidth[0, 2] == 2 and table.route(0, 2).tolist() == [0, 2]
    assert table.route(2, 0).tolist() == [3, 1]


@pytest.mark.parametrize("build, what", [
    (lambda: SystemGraph(np.ones(3), np.array([0]), np.array([1]), np.ones(1)), "disconnected"),
    (lambda: SystemGraph(np.array([1.0, 0.0]), np.array([0]), np.array([1]), np.ones(1)), "speed 0.0"),
    (lambda: SystemGraph(np.ones(2), np.array([0]), np.array([1]), np.zeros(1)), "bandwidth"),
    (lambda: TaskGraph(np.ones(2), np.array([0, 1]), np.array([1, 0]), np.ones(2)), "cycle"),
])
def test_bad_graphs_raise_one_line(build, what):
    with pytest.raises(TaskGraphError, match=what) as error:
        build()
    assert "\n" not in str(error.value)


def test_system_file_round_trip(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"speed": [1, 2, 3], "links": [[0, 1, 5], [1, 2, 1]]}))
    system = read_system(path)
    assert system.links == 2 and system.bandwidth.tolist() == [5, 1]
    path.write_text(json.dumps({"speed": [1, 2, 3], "links": [[0, 1, 5]]}))
    with pytest.raises(TaskGraphError, match="disconnected"):
        read_system(path)


def test_plain_edge_list(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("# a diamond\ntask 0 2\ntask 1 3\ntask 2 1\ntask 3 2\n"
                    "edge 0 1 4\nedge 0 2 1  # light\nedge 1 3 2\nedge 2 3 5\n")
    graph = read_edge_list(path)
    assert graph.tasks == 4 and graph.edges == 4 and critical_path(graph) == 7


@pytest.mark.parametrize("text, where, what", [
    ("task 0 1\ntask 1 1\nedge 0 1 1\nedge 1 0 1\n", "", "cycle"),
    ("task 0 1\nedge 0 3 1\n", ":2:", "missing task"),
    ("task 0 -1\n", ":1:", "negative weight"),
    ("task 0 1\nedge 0 0x 1\n", ":2:", "not a number"),
    ("node 0 1\n", ":1:", "expected 'task"),
    ("task 0 1\ntask 2 1\n", "", "none missing"),
])
def test_bad_edge_lists(tmp_path, text, where, what):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(TaskGraphError, match=what) as error:
        read_edge_list(path)
    assert str(error.value).startswith(str(path) + where) and "\n" not in str(error.value)


@pytest.mark.parametrize("name", ["stg_robot", "stg_sparse", "stg_fpppp", "topcuoglu2002"])
def test_the_graph_files_of_the_workloads_ship_inside_the_package(name):
    """A workload's file lies under sweep/ and matches the package data pyproject.toml declares, so
    a wheel installed anywhere has it (docs/design.md §8)."""
    path = load_option("workload", name)["path"]
    assert path.startswith("sweep/") and (ROOT / path).is_file()
    with open(ROOT / "pyproject.toml", "rb") as file:
        globs = tomllib.load(file)["tool"]["setuptools"]["package-data"]["sweep"]
    assert any(fnmatch.fnmatch(path.removeprefix("sweep/"), glob) for glob in globs)
    assert (ROOT / path).parent == SHIPPED
