#!/usr/bin/env bash
# Debian packages the tests need: chromium (driven by Playwright for Python, whose own browser
# download cannot work here), postgresql (the server tests run against a real PostgreSQL as well
# as SQLite), nodejs (examples/node_bot.js, the bot that uses the bot protocol alone) and nginx
# (the proxy in front of several server processes, tests/test_web_proxy.py); and ICU's headers,
# pkg-config and a C++ compiler, which PyICU (the web extra's confusable-name check) builds
# against when pip installs it (it ships no wheels). Idempotent:
# installs only what is missing, so `make test` can run it every time at no cost once the
# packages are there. nginx's binary is /usr/sbin/nginx, which is not on a normal user's PATH:
# it is looked for there.
set -euo pipefail

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || missing+=(postgresql)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
[ -f /usr/include/unicode/uspoof.h ] || missing+=(libicu-dev)
command -v g++ >/dev/null 2>&1 || missing+=(g++)

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "system-deps: missing Debian packages: ${missing[*]}; install them as root:" >&2
    echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
    exit 1
fi
echo "system-deps: installing ${missing[*]} (apt-get)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=600 update -qq
apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
