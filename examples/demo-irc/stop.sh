#!/bin/sh
# Stops the demo IRC server started by start.sh DIR, by its PID.
set -eu
dir=${1:?usage: stop.sh DIR}
[ -f "$dir/ngircd.pid" ] && kill "$(cat "$dir/ngircd.pid")" 2>/dev/null || true
rm -rf "$dir"
