"""The private modules behind the public Python API, `chutes.__all__`: boards (`boards`), exact results
(`results`) and simulated games (`simulation`). The command line (`chutes.cli`) is built on them; they never
import it."""
