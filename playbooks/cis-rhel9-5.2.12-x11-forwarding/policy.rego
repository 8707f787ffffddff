# CIS RHEL 9 5.2.12: Ensure SSH X11 forwarding is disabled.
# X11Forwarding defaults to no, so an unset keyword complies; any other value than no
# (sshd compares values case-insensitively) violates, globally or in a Match block.
package check

import rego.v1

default result := true

result := false if lower(global_value("x11forwarding")) != "no"

result := false if {
	some value in match_values("x11forwarding")
	lower(value) != "no"
}

# How sshd reads its configuration (OpenSSH 8.7, RHEL 9), which this policy follows:
# - lines are "Keyword value" or "Keyword=value"; keywords are case-insensitive; blank lines and
#   lines starting with "#" are ignored;
# - "Include pattern..." reads the files matching each pattern (relative patterns are under
#   /etc/ssh; each pattern's files in lexical order) in place of the Include line. RHEL 9's
#   sshd_config starts with "Include /etc/ssh/sshd_config.d/*.conf", so its drop-ins are read
#   before the rest of the main file, and a file not ending in .conf is never read;
# - for each keyword the FIRST value read wins; a later line cannot override it;
# - after a "Match" line, settings apply only to connections matching it, up to the next Match
#   line or the end of that file. Such a setting may apply to some connection, so every Match
#   block value is checked too (a compliant one is fine, it only tightens the rule).
#
# Input (collected_data.json):
#   {"sshd_config": "<text of /etc/ssh/sshd_config>",
#    "drop_ins": {"/etc/ssh/sshd_config.d/<name>": "<text>", ...}}   # every file, any name

# [keyword in lower case, first word of the value], for a setting line
setting(line) := [lower(m[1]), m[2]] if {
	m := regex.find_all_string_submatch_n(`^\s*([A-Za-z][A-Za-z0-9]*)(?:\s*=\s*|\s+)"?([^"\s]*)`, line, 1)[0]
}

main_lines := split(object.get(input, "sshd_config", ""), "\n")

drop_ins := object.get(input, "drop_ins", {})

absolute(pattern) := pattern if startswith(pattern, "/")

absolute(pattern) := concat("/", ["/etc/ssh", pattern]) if not startswith(pattern, "/")

matches_before(lines, i) := count([k | some k, line in lines; k < i; setting(line)[0] == "match"])

# Every setting sshd reads, with a key ordering them as sshd reads them.
settings contains {"key": i * 100000000, "keyword": s[0], "value": s[1], "in_match": in_match} if {
	some i, line in main_lines
	s := setting(line)
	not s[0] in {"match", "include"}
	in_match := matches_before(main_lines, i) > 0
}

settings contains {"key": key, "keyword": s[0], "value": s[1], "in_match": in_match} if {
	some i, line in main_lines
	words := regex.split(`\s+`, trim_space(line))
	lower(words[0]) == "include"
	some p, pattern in array.slice(words, 1, count(words))
	files := sort([path | some path, _ in drop_ins; glob.match(absolute(pattern), ["/"], path)])
	some r, path in files
	lines := split(drop_ins[path], "\n")
	some j, drop_in_line in lines
	s := setting(drop_in_line)
	not s[0] in {"match", "include"}
	key := (((i * 10) + p) * 1000 + r) * 10000 + j
	in_match := (matches_before(main_lines, i) + matches_before(lines, j)) > 0
}

# The value sshd uses for a keyword outside Match blocks (undefined when unset: the default).
global_value(keyword) := s.value if {
	keys := [t.key | some t in settings; t.keyword == keyword; not t.in_match]
	some s in settings
	s.keyword == keyword
	not s.in_match
	s.key == min(keys)
}

# Values set inside Match blocks.
match_values(keyword) := {s.value | some s in settings; s.keyword == keyword; s.in_match}
