"""The audit report: DuckDB over the dataset's Parquet files (`query`), then one self-contained HTML
page (`html`). `casino-validator report` and `check --format html` both end in `report.audit_html`.

Nothing is imported here: the CLI reads validator/audit/options.py at start-up, which must not load the
queries and the page."""
