# Sourced by scripts/test and tests/fuzz/campaign (from the source root):
# dict_of TARGET prints the libFuzzer dictionary for TARGET, its own
# tests/fuzz/TARGET.dict or that of the format it reads, or nothing.
dict_of() {
	for d in "$1" "$(case "$1" in
		robots_lexer | site_judge) echo robots ;;
		irc_session) echo irc_message ;;
		esac)"; do
		[ -n "$d" ] && [ -f "tests/fuzz/$d.dict" ] && { echo "tests/fuzz/$d.dict"; return; }
	done
}
