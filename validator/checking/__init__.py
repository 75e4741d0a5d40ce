"""Running `check`: logs replayed in this process (`serial`) or shared out over a Dask cluster
(`parallel`, `cluster`), one round told step by step (`explain`), the progress display, and the rule
fixtures `rules test` checks (`fixtures`)."""
