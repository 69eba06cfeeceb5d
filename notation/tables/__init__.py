"""Tables: the Polars schemas, row builders, Parquet datasets (local and distributed import),
statistics, standings and the club level-and-points ledger."""
