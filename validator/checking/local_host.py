"""The local cluster of `check --jobs N`, in a process of its own: its scheduler and its nannies.

`cluster._local_cluster` runs this module's `main` in a new process (`main([N, SCRATCH])`, this
package's folder first on the path, where the command found it): it starts a Dask `LocalCluster` of N
single-threaded worker processes, writes the scheduler's address on its standard output, and runs until
its standard input ends (the command closed it, or the command is gone, killed or not), then closes the
cluster and exits. What the scheduler and the nannies do on a clock (the workers' heartbeats, the
scheduler's checks, the monitors) and for each task is this process's work, not the command's: the
command's process, as a system monitor shows it, plans, merges and writes the report, and holds a
client. Ctrl-C (SIGINT, which a terminal sends to the whole process group) is left to the command,
which stops the workers and closes this process's input.
"""

from __future__ import annotations

import logging
import signal
import sys

# The scheduler and nannies work less on a clock than with Dask's defaults (4 % of a core, idle, for a
# cluster of two; 0.6 % with these). The shares are queued on the scheduler in the plan's order and
# handed to the workers as they free up, so stealing them between workers balances nothing. A worker's
# statistical profiler (for the dashboard, which a local cluster does not serve) would take the replay's
# interpreter lock every 10 ms to walk its stack: about 1 % of the replay's CPU.
QUIET = {
    "distributed.scheduler.work-stealing": False,
    "distributed.worker.profile.enabled": False,
    "distributed.worker.memory.monitor-interval": "2s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.admin.tick.interval": "1s",
}
CLOSE_TIMEOUT = 5


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the command's to handle (see above)
    jobs, scratch = int(argv[0]), argv[1]
    # Heavy and optional (the cluster extra): this module is only run for --jobs.
    import dask
    from distributed import LocalCluster

    dask.config.set({"temporary-directory": scratch, **QUIET})
    logging.getLogger("distributed").setLevel(logging.CRITICAL)  # the cluster's log is not the report
    # distributed's LocalCluster is not annotated.
    cluster = LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=jobs,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        # The scheduler serves HTTP (metrics) even without a dashboard: on a free port.
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        worker_dashboard_address=None,
        local_directory=scratch,
        silence_logs=logging.CRITICAL,
    )
    try:
        sys.stdout.write(f"{cluster.scheduler_address}\n")
        sys.stdout.flush()
        while sys.stdin.buffer.read(4096):
            pass
    finally:
        cluster.close(timeout=CLOSE_TIMEOUT)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
