"""The exact methods' work modulo primes on a Dask cluster (`--scheduler`): the same fractions, command output
and records as on this machine, the work shared by every worker, and one line for a cluster that cannot be used."""

from __future__ import annotations

import pytest
from helpers import chain, chutes, new_project

from chutes.compute.solve.modular import on_cluster
from chutes.compute.solve.threeplayer import first_of_three_wins
from chutes.compute.solve.twoplayer import first_player_wins
from chutes.compute.store import sweep

distributed = pytest.importorskip("dask.distributed", reason="Dask is an optional extra")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as local:
        yield local


def _executed(cluster) -> list[int]:
    """How many tasks each worker of the cluster has run so far."""
    with distributed.Client(cluster.scheduler_address) as client:
        return sorted(client.run(lambda dask_worker: dask_worker.state.executed_count).values())


def _every_worker_ran_more(before: list[int], after: list[int]) -> bool:
    return len(after) == len(before) == 2 and all(b > a for a, b in zip(before, after))


@pytest.mark.parametrize("slug, method", [("classic", first_player_wins), ("tiny", first_of_three_wins)],
                         ids=["two players", "three players"])
@pytest.mark.xdist_group("cluster")  # on one worker, which starts the cluster once
def test_the_exact_chances_on_a_cluster_are_the_local_fractions(cluster, slug: str, method) -> None:
    c = chain(slug)
    before = _executed(cluster)
    with on_cluster(cluster.scheduler_address):
        remote = method(c)
    assert _every_worker_ran_more(before, _executed(cluster))
    assert remote == method(c, parallel=False)


@pytest.mark.xdist_group("cluster")
def test_solve_with_a_scheduler_prints_the_same(cluster) -> None:
    address = cluster.scheduler_address
    for args in (["solve", "classic", "--json"], ["solve", "tiny", "--players", "3", "--exact", "--json"]):
        before = _executed(cluster)
        remote = chutes(*args, "--scheduler", address)
        assert remote.returncode == 0, remote.stderr
        assert _every_worker_ran_more(before, _executed(cluster)), args
        assert remote.stdout == chutes(*args).stdout


@pytest.mark.xdist_group("cluster")
def test_compute_with_a_scheduler_stores_the_same_records(cluster, tmp_path) -> None:
    """Whole boards go to the workers (one each here), and their records come back the same bytes."""
    records = {}
    for name, extra in (("cluster", ["--scheduler", cluster.scheduler_address]), ("here", [])):
        project = new_project(tmp_path / name, ["tiny", "short"])
        before = _executed(cluster)
        done = chutes("compute", "--project", str(project.root), *extra)
        assert done.returncode == 0, done.stderr
        assert _every_worker_ran_more(before, _executed(cluster)) == (name == "cluster")
        records[name] = {path.name: path.read_bytes() for path in project.cache_dir.glob("*.json")}
    assert len(records["here"]) == 2 and records["cluster"] == records["here"]


def test_a_cluster_that_cannot_be_used_is_one_line(tmp_path, monkeypatch) -> None:
    """A bad address, an address where nothing listens (refused at once, not timed out after CONNECT_SECONDS of
    Dask's retries) and a cluster without workers."""
    solved = chutes("solve", "tiny", "--scheduler", "not a url")
    project = new_project(tmp_path / "project")
    computed = chutes("compute", "--project", str(project.root), "--scheduler", "tcp://127.0.0.1:9")
    assert "refused" in computed.stderr
    for failed in (solved, computed):
        assert failed.returncode == 2 and len(failed.stderr.strip().splitlines()) == 1, failed.stderr
        assert "--scheduler" in failed.stderr and "Traceback" not in failed.stderr
    assert not list(project.cache_dir.glob("*.json"))
    monkeypatch.setattr(sweep, "CONNECT_SECONDS", 1)
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as empty:
        with pytest.raises(sweep.SweepError, match="no workers"):
            sweep.check_cluster(empty.scheduler_address)
