"""Running `check`: logs replayed in this process (`serial`) or shared out over a Dask cluster
(`parallel`, `cluster`), one round told step by step (`explain`), and the progress display."""
