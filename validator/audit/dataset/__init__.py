"""The audit dataset: every round, finding and run of `check --dataset DIR` as Parquet files.

Layout (hive style, so a query for one casino or one month reads only its folders):

    DIR/rounds/casino_key=<key>/month=YYYY-MM/<log digest>-<run>-<share>-<part>.parquet
    DIR/findings/casino_key=<key>/month=YYYY-MM/<log digest>-<run>-<share>-<part>.parquet
    DIR/runs/<run>.parquet

Each writer (a process replaying one file, or one share of a file under `--jobs`) writes its own files:
there is no single writer in the middle. A run ends by removing the files an earlier run wrote for the
same logs (same SHA-256 digest), so checking a log again replaces its rows.
"""
