"""A board's record, what the site is built from: its schema (`schema`), the exact results (`results`),
chart series (`series`, `positions`), the three-way checks (`checks`, `criteria`), the published figures it
is compared with (`literature`), and the whole record assembled (`build`)."""
