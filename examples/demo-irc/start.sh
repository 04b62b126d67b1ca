#!/bin/sh
# Starts heed's demo IRC network on loopback: ngircd in the foreground of a
# background job, its config and PID under DIR (default: a new temp folder),
# listening on 127.0.0.1:PORT (default 16667). Prints the DIR; stop the
# server with `examples/demo-irc/stop.sh DIR`.
#
#   dir=$(examples/demo-irc/start.sh)
#   heed irc crawl --allow-private 127.0.0.1:16667
set -eu
here=$(cd "$(dirname "$0")" && pwd)
port=${PORT:-16667}
dir=${1:-$(mktemp -d /tmp/heed-demo-irc.XXXXXX)}
mkdir -p "$dir/empty.d"
echo "Welcome to heed's demo IRC network (loopback only)." > "$dir/motd.txt"
sed -e "s|@DIR@|$dir|g" -e "s|@PORT@|$port|g" "$here/ngircd.conf.in" \
	> "$dir/ngircd.conf"
/usr/sbin/ngircd --configtest -f "$dir/ngircd.conf" >/dev/null 2>&1 || {
	echo "start.sh: bad ngircd config in $dir/ngircd.conf" >&2
	exit 1
}
# -n keeps ngircd in the foreground so its PID is ours to stop (as root it
# drops to nobody and cannot write a PidFile in a root-owned folder).
/usr/sbin/ngircd -n -f "$dir/ngircd.conf" > "$dir/ngircd.log" 2>&1 &
echo $! > "$dir/ngircd.pid"
# Wait (at most 10 s) until it listens.
i=0
until python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 1).close()" 2>/dev/null; do
	i=$((i + 1))
	if [ $i -ge 50 ]; then
		echo "start.sh: ngircd did not start; see $dir/ngircd.log" >&2
		kill "$(cat "$dir/ngircd.pid")" 2>/dev/null || true
		exit 1
	fi
	sleep 0.2
done
echo "$dir"
