"""chutes: the command line that drives the compute stage (`compute`) and the build stage (`site_build`).

The package also carries the generator's defaults as data: `templates/` (pages and theme overrides) and
`site_src/` (hand-written pages, assets and the bundled boards).
"""
