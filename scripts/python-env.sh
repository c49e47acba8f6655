#!/usr/bin/env bash
# The project's own Python environment, .venv/ beside package.json: Schemathesis (npm run fuzz), pytest
# and what the generated Python SDKs need (npm run test:sdks). Installed from python/requirements.txt,
# every package pinned with its hashes; nothing is installed outside .venv/. Made again when the
# requirements change. `--compile` pins python/requirements.in anew (pip-tools in a scratch environment).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv
requirements=python/requirements.txt

if [[ "${1:-}" == "--compile" ]]; then
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  python3 -m venv "$scratch/venv"
  "$scratch/venv/bin/pip" install --quiet pip-tools
  (cd python && "$scratch/venv/bin/pip-compile" --generate-hashes --allow-unsafe --strip-extras \
    --no-header --quiet -o requirements.txt requirements.in)
  echo "pinned python/requirements.txt"
fi

stamp="$venv/.requirements.sha256"
want=$(sha256sum "$requirements" | cut -d' ' -f1)
if [[ -x "$venv/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
  exit 0
fi
echo "python-env: installing python/requirements.txt into $venv"
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check --require-hashes --no-deps -r "$requirements"
echo "$want" >"$stamp"
