"""The build stage: cached JSON results → Markdown pages with Plotly charts → a site built by MkDocs or Zensical.

Nothing here does mathematics; every number comes from the compute stage's JSON.
"""
