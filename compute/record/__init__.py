"""A board's record, what the site is built from: its schema (`schema`), the exact results (`results`),
chart series (`series`), the criterion of the three-way checks (`criteria`), the published figures it is
compared with (`literature`), the plain-words sentences (`words`), and the whole record assembled with its
players and three-way checks (`build`)."""

SCHEMA_VERSION = 15
"""The version of the record's layout and meaning (`schema`); CHANGELOG.md records each change. Here, not in
`schema`, so that the cache key (`key`) is known without building the record's models."""
