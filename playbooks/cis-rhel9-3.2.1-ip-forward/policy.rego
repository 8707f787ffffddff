# CIS RHEL 9 3.2.1: ensure IP forwarding is disabled.
# net.ipv4.ip_forward and net.ipv6.conf.all.forwarding must be set to 0 by the persistent
# configuration (unset violates: the requirement asks for an explicit setting).
#
# How the settings are applied at boot (systemd-sysctl, then sysctl --system):
# - *.conf files of /etc/sysctl.d, /run/sysctl.d, /usr/local/lib/sysctl.d and /usr/lib/sysctl.d
#   are read in order of their file NAME, whatever the directory; a name in an earlier directory
#   of that list hides the same name in a later one; /etc/sysctl.conf is applied last;
# - lines are "key = value"; "#" and ";" start comment lines; a leading "-" only silences
#   errors; a key written with "/" separators (net/ipv4/ip_forward) is the same key;
# - a later assignment overrides an earlier one.
#
# Input (collected_data.json): {"files": {"<absolute path>": "<text>", ...}}
package check

import rego.v1

default result := true

directories := ["/etc/sysctl.d", "/run/sysctl.d", "/usr/local/lib/sysctl.d", "/usr/lib/sysctl.d"]

files := object.get(input, "files", {})

# [file name, directory rank, path] for every *.conf file of a sysctl.d directory
candidates contains [name, rank, path] if {
	some path, _ in files
	some rank, directory in directories
	startswith(path, concat("", [directory, "/"]))
	name := substring(path, count(directory) + 1, -1)
	not contains(name, "/")
	endswith(name, ".conf")
}

# file name -> the path that is read for it
chosen[name] := path if {
	some [name, rank, path] in candidates
	rank == min({r | some [n, r, _] in candidates; n == name})
}

# paths in the order they are applied
ordered := array.concat(
	[chosen[name] | some name in sort(object.keys(chosen))],
	[path | path := "/etc/sysctl.conf"; files[path]],
)

normal_key(key) := replace(replace(replace(key, ".", "\u0000"), "/", "."), "\u0000", "/") if {
	# "/" before any "." means the "/" form: swap the separators
	regex.match(`^[^.]*/`, key)
}

normal_key(key) := key if not regex.match(`^[^.]*/`, key)

assignments contains [index, line_index, normal_key(trim_left(m[1], "-")), m[2]] if {
	some index, path in ordered
	some line_index, line in split(files[path], "\n")
	some m in regex.find_all_string_submatch_n(`^\s*([^#;=\s][^=\s]*)\s*=\s*(.*?)\s*$`, line, 1)
}

# the value in force for a key (undefined when no file sets it)
value(key) := v if {
	# a head "a + b | ..." would parse as a set union: name the position first
	last := max({position | some [index, line_index, k, _] in assignments; k == key; position := (index * 100000) + line_index})
	some [index, line_index, k, v] in assignments
	k == key
	index * 100000 + line_index == last
}

disabled(key) if value(key) == "0"

result := false if not disabled("net.ipv4.ip_forward")

result := false if not disabled("net.ipv6.conf.all.forwarding")
