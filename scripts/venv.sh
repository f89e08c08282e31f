# Sourced by scripts/build and scripts/test: work in the active virtual environment, else in the project's
# .venv, made on first use with the system's python3 (on Debian, whose python3 refuses `pip install`
# outside a virtual environment, python3-venv is installed first if missing).
if [ -z "${VIRTUAL_ENV:-}" ]; then
  if [ ! -x .venv/bin/python ]; then
    if ! python3 -m venv .venv >/dev/null 2>&1; then
      rm -rf .venv
      echo "Installing Debian's python3-venv to make a virtual environment in .venv..."
      SUDO=""
      if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
      $SUDO apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-venv >/dev/null
      python3 -m venv .venv
    fi
    echo "Made a virtual environment in .venv (activate it with: source .venv/bin/activate)"
  fi
  # shellcheck disable=SC1091
  source .venv/bin/activate
fi

# The project itself, editable (its code is read from this folder): installed again only when pyproject.toml
# changed since the last install into this environment from this folder (pip takes about 3 s to find that
# nothing changed).
install_project() {
  local stamp="$VIRTUAL_ENV/.chutes-installed" want
  want="$PWD $(sha256sum pyproject.toml | cut -d' ' -f1)"
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] || [ ! -x "$VIRTUAL_ENV/bin/chutes" ]; then
    python -m pip install --quiet --disable-pip-version-check --no-deps -e .
    echo "$want" > "$stamp"
  fi
}
