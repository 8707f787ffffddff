# CIS RHEL 9 1.1.1.1: Ensure mounting of cramfs filesystems is disabled. The first install rule
# modprobe finds for cramfs must run /bin/false or /bin/true (so "modprobe cramfs" loads
# nothing), and cramfs must be blacklisted (so no alias loads it either).
package check

import rego.v1

module := "cramfs"

default result := true

result := false if not install_disabled

result := false if not blacklisted

install_disabled if regex.match(`^(/usr)?/bin/(false|true)(\s+#.*)?$`, first_install_command)

blacklisted if {
	some rule in rules
	rule.directive == "blacklist"
	rule.module == normalize(module)
}

# How modprobe (kmod, RHEL 9) reads its configuration, which this policy follows:
# - it reads files whose name ends in ".conf" (and does not start with ".") from
#   /etc/modprobe.d, /run/modprobe.d, /usr/local/lib/modprobe.d, /usr/lib/modprobe.d and
#   /lib/modprobe.d; a file in an earlier directory hides a same-named file in a later one (an
#   empty /etc file masks a vendor file);
# - all files are read in lexical order of their names, whatever their directory;
# - a line ending in "\" continues on the next; a line whose first word starts with "#" is a
#   comment; words are separated by spaces or tabs;
# - module names treat "-" and "_" alike;
# - for "install <module> <command...>" the FIRST rule read for a module wins;
#   "blacklist <module>" anywhere counts. (kmod also lets a rule name a module by a wildcard
#   pattern such as "cram*"; this policy matches names exactly.)
#
# Input (collected_data.json): {"files": {"<absolute path>": "<text>", ...}}, every file of those
# directories, any name.

directories := ["/etc/modprobe.d", "/run/modprobe.d", "/usr/local/lib/modprobe.d", "/usr/lib/modprobe.d", "/lib/modprobe.d"]

files := object.get(input, "files", {})

split_path(path) := [dir, name] if {
	parts := split(path, "/")
	name := parts[count(parts) - 1]
	dir := concat("/", array.slice(parts, 0, count(parts) - 1))
}

# [directory priority, name, path] of every file modprobe would consider.
candidates contains [priority, name, path] if {
	some path, _ in files
	[dir, name] := split_path(path)
	some priority, d in directories
	d == dir
	endswith(name, ".conf")
	not startswith(name, ".")
}

# The file that is read for each name: the one in the earliest directory.
effective[name] := path if {
	some [priority, name, path] in candidates
	priority == min({p | some [p, n, _] in candidates; n == name})
}

normalize(name) := replace(name, "-", "_")

# Every install/blacklist rule, with a key ordering them as modprobe reads them.
rules contains {"key": (r * 100000) + j, "directive": m[1], "module": normalize(m[2]), "command": m[3]} if {
	names := sort([name | some name, _ in effective])
	some r, name in names
	text := replace(files[effective[name]], "\\\n", " ")
	some j, line in split(text, "\n")
	m := regex.find_all_string_submatch_n(`^[ \t]*(install|blacklist)[ \t]+(\S+)[ \t]*(.*?)[ \t]*$`, line, 1)[0]
}

install_keys := [rule.key | some rule in rules; rule.directive == "install"; rule.module == normalize(module)]

first_install_command := rule.command if {
	some rule in rules
	rule.directive == "install"
	rule.module == normalize(module)
	rule.key == min(install_keys)
}
