#!/usr/bin/env bash
# Smoke test of the generated bash command-line wrappers (generated/sdks/bash/<service>/specyard-<service>)
# against the live servers on demo data: one route per service, each wrapper run as a command, as the
# README shows it (not through `bash`). sdks/smoke.test.ts starts the servers and
# passes their addresses and credentials in the environment. Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../../generated/sdks/bash"
passed=0
failed=0

check() {
  local name=$1 want=$2 got=$3
  if grep -q -- "$want" <<<"$got"; then
    passed=$((passed + 1))
    echo "ok: $name"
  else
    failed=$((failed + 1))
    echo "FAILED: $name: wanted $want in: ${got:0:300}"
  fi
}

check "fuel getConfig" '"defaultCountry":"ES"' \
  "$(fuel/specyard-fuel --host "$SPECYARD_FUEL_URL" getConfig 2>&1)"

check "archive login" '"success":true' \
  "$(archive/specyard-archive --host "$SPECYARD_ARCHIVE_URL" login \
    "username==$SPECYARD_ARCHIVE_USERNAME" "password==$SPECYARD_ARCHIVE_PASSWORD" 2>&1)"

check "subtitles getSetupStatus with an API key" '"SetupComplete":' \
  "$(subtitles/specyard-subtitles --host "$SPECYARD_SUBTITLES_URL" getSetupStatus plugin=Subtitles \
    "Authorization:MediaServer Token=\"$SPECYARD_SUBTITLES_API_KEY\"" 2>&1)"

echo "bash: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
