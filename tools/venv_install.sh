#!/bin/sh
# Install packages into the project's virtualenv: `tools/venv_install.sh VENV ARGS...`
# (ARGS as for `pip install`). uv does it when it can: it downloads in parallel and
# installed the core dependencies in 4.4 s where pip took 68 s on this machine (fresh
# caches; uv itself took 10 s more to fetch). pip does it when uv cannot be fetched or
# fails (an offline machine with a local wheel house, say): uv does not read pip's
# configuration.
set -u
venv=$1
shift
py="$venv/bin/python"
if [ ! -x "$venv/bin/uv" ] && [ -z "${POKERARENA_NO_UV:-}" ]; then
    "$py" -m pip install -q --disable-pip-version-check uv >/dev/null 2>&1 || true
fi
if [ -x "$venv/bin/uv" ] && [ -z "${POKERARENA_NO_UV:-}" ]; then
    "$venv/bin/uv" pip install -q --python "$py" "$@" && exit 0
    echo "uv could not install $*; trying pip" >&2
fi
exec "$py" -m pip install -q --disable-pip-version-check "$@"
