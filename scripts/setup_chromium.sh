# shellcheck shell=bash
# Sourced by test.sh (bash, set -euo pipefail): make Debian's chromium available to the browser tests.
#
# - /usr/bin/chromium present: use it.
# - absent, and apt-get usable (root): install it, non-interactively.
# - found or installed: export SAWBONES_CHROMIUM=/usr/bin/chromium and SAWBONES_REQUIRE_BROWSER=1, so
#   the browser tests fail (never skip) when chromium cannot start. Otherwise they may skip, unless CI is set.
# Never `exit`: this file runs inside test.sh's shell.

_sawbones_chromium=/usr/bin/chromium
if [ ! -x "$_sawbones_chromium" ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
  echo "setup_chromium: installing Debian's chromium for the browser tests..." >&2
  if ! { DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium >/dev/null 2>&1 \
         || { DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null 2>&1 \
              && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium >/dev/null 2>&1; }; }; then
    echo "setup_chromium: could not install chromium; browser tests will skip (or fail under CI)" >&2
  fi
fi
if [ -x "$_sawbones_chromium" ]; then
  export SAWBONES_CHROMIUM="$_sawbones_chromium"
  export SAWBONES_REQUIRE_BROWSER=1
fi
unset _sawbones_chromium
