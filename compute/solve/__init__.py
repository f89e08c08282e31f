"""Solving a board: its turn chain (`chain`, built on the plain `integer.IntegerChain` that every algorithm
takes), exact one-player results (`exact`, `lengths`, `jumps`, `landing`), two and three players exactly (`twoplayer`,
`threeplayer`, with `modular`'s shared arithmetic and `reference`'s independent check), 2–20 players
certified (`races`), double precision (`floats`) and simulation (`simulate`)."""
