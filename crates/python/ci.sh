#!/usr/bin/env bash
# The Python package's checks, from a fresh clone with nothing installed by hand: Rust formatting
# and lints of this crate (outside the cargo workspace), a fresh virtual environment under
# target/ with maturin, pytest, ruff, diplomacy and ray from PyPI, the wheel built by maturin and
# installed into it, Python formatting and lints, and the pytest suite (Ray self-play included).
# Usage: bash crates/python/ci.sh [extra pytest arguments]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target/python}
venv=$root/target/python-venv
wheels=$CARGO_TARGET_DIR/wheels
python=${PYTHON:-python3}
cd "$here"

echo "== python package: cargo fmt --check"
cargo fmt -- --check

echo "== python package: cargo clippy"
cargo clippy --all-targets --locked -- -D warnings

echo "== python package: fresh virtual environment"
rm -rf "$venv"
"$python" -m venv "$venv"
start=$(date +%s)
"$venv/bin/pip" install -q "maturin>=1.16,<2" "pytest==9.2.0" "ruff==0.17.6" "diplomacy==1.1.2" "ray==2.60.0"
echo "python package: tools installed in $(($(date +%s) - start)) s"

echo "== python package: wheel (maturin, release)"
start=$(date +%s)
rm -rf "$wheels"
"$venv/bin/maturin" build --release --locked --quiet --interpreter "$venv/bin/python" --out "$wheels"
echo "python package: wheel built in $(($(date +%s) - start)) s"
"$venv/bin/pip" install -q --force-reinstall --no-deps "$wheels"/spielleiter-*.whl

echo "== python package: ruff format --check, ruff check"
sources=(python tests bench.py ../../examples/ray_selfplay.py)
"$venv/bin/ruff" format --check "${sources[@]}"
"$venv/bin/ruff" check "${sources[@]}"

echo "== python package: pytest"
"$venv/bin/python" -m pytest -q tests "$@"
