"""One local Dask cluster (two single-threaded worker processes) shared by the tests of a session: the
tests that compare reports run their shares on it through its scheduler's address, as `--scheduler`
does, without paying for a cluster's start each time."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session")
def dask_cluster() -> Iterator[object]:
    """With the settings of `check --jobs`'s own cluster (validator/checking/local_host.py: no work
    stealing, no statistical profiler, slower monitors): with Dask's defaults, the cluster of two left
    running for the rest of the session spends a tenth of a core on its clocks (3.1 s of CPU in 30 s idle,
    0.4 s with these)."""
    import dask
    from distributed import LocalCluster

    from validator.checking.local_host import QUIET

    dask.config.set(QUIET)
    cluster = LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        silence_logs=logging.CRITICAL,
    )
    try:
        yield cluster
    finally:
        cluster.close()


@pytest.fixture(scope="session")
def dask_scheduler(dask_cluster: object) -> str:
    return str(dask_cluster.scheduler_address)  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def _jobs_on_the_session_cluster(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """`check --jobs N` run in a test process replays its shares on the session's cluster, as `--scheduler`
    does, instead of starting a local cluster of its own (two worker processes started and stopped: 3 to 4
    s of CPU each time, for some twenty tests). What those tests assert (the same findings, summary and
    reports as one process) is the client's and the workers' work, which runs the same either way; the
    local cluster's own start, stop and clean-up are tested by the tests marked `own_cluster`, and by the
    tests that run the command as a process of its own (tests/replay/test_cluster.py, the benchmark
    script's test), which this cannot reach."""
    if request.node.get_closest_marker("own_cluster") is not None:
        return
    from validator.checking import cluster

    start_own = cluster._local_cluster

    def on_the_session_cluster(jobs: int) -> object:
        if jobs == 0:  # every share in this process: no worker to borrow
            return start_own(jobs)
        from validator.checking.options import CheckOptions

        timeout = CheckOptions(logs=()).scheduler_timeout  # --scheduler-timeout's default
        return cluster._connected(request.getfixturevalue("dask_scheduler"), timeout)

    monkeypatch.setattr(cluster, "_local_cluster", on_the_session_cluster)
