"""One local Dask cluster (two single-threaded worker processes) shared by the tests of a session: the
tests that compare reports run their shares on it through its scheduler's address, as `--scheduler`
does, without paying for a cluster's start each time."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session")
def dask_cluster() -> Iterator[object]:
    from distributed import LocalCluster

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
