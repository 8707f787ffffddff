# CIS RHEL 9 5.4.1: password creation requirements, minimum length. Both PAM stacks that change
# passwords (system-auth, password-auth) must run pam_pwquality.so, and the minlen it applies
# must be 14 or more. Unset violates: libpwquality's built-in default is 8 or 9 (by version).
package check

import rego.v1

default result := true

stacks := ["/etc/pam.d/system-auth", "/etc/pam.d/password-auth"]

result := false if {
	some stack in stacks
	not stack_compliant(stack)
}

stack_compliant(stack) if {
	some line in module_lines(stack)
	value := effective_minlen(line)
	integer(value)
	to_number(value) >= 14
}

# How the minimum length is decided (libpwquality 1.4, RHEL 9; read from its settings.c and
# pam_pwquality.c), which this policy follows:
# - pwquality_read_config reads the files of /etc/security/pwquality.conf.d whose name ends in
#   ".conf" (the first ".conf" in the name must be its end) in strcmp order FIRST, then
#   /etc/security/pwquality.conf; each setting keeps the LAST value read, so the main file wins
#   over the drop-ins;
# - in those files "#" starts a comment anywhere on a line; a line is "name value" or
#   "name = value" (spaces optional); names are case-insensitive; a value that is not a whole
#   integer is an error that stops the reading (later lines and files are not applied);
# - pam_pwquality then applies its own arguments in order, so "minlen=N" on the module line
#   overrides the files (the last such argument wins);
# - pam_pwquality raises a minlen below 6 to 6, which does not matter for a bound of 14.
# A stack without an active pam_pwquality.so line checks nothing and violates; when it calls the
# module more than once, a new password must pass every call, so one compliant call suffices.
#
# Input (collected_data.json): {"files": {"<absolute path>": "<text>", ...}}

files := object.get(input, "files", {})

main_file := "/etc/security/pwquality.conf"

drop_in_dir := "/etc/security/pwquality.conf.d/"

drop_in(path) if {
	startswith(path, drop_in_dir)
	name := substring(path, count(drop_in_dir), -1)
	not contains(name, "/")
	indexof(name, ".conf") == count(name) - 5
}

# Files in the order libpwquality reads them.
config_files := array.concat(sort([path | some path, _ in files; drop_in(path)]), [main_file])

# minlen values from the files, with a key ordering them as libpwquality reads them.
file_values contains {"key": (f * 100000) + j, "value": m[1]} if {
	some f, path in config_files
	some j, line in split(object.get(files, path, ""), "\n")
	setting := trim_space(split(line, "#")[0])
	m := regex.find_all_string_submatch_n(`^(?i:minlen)(?:\s*=\s*|\s+)(.*)$`, setting, 1)[0]
}

integer(value) if regex.match(`^[+-]?[0-9]+$`, value)

malformed_keys := [v.key | some v in file_values; not integer(v.value)]

# The value read last (undefined when no file sets it). A malformed value stops the reading, so
# it is the one in effect then (it is not a number, so it does not comply).
file_minlen := v.value if {
	count(malformed_keys) == 0
	last := max([v.key | some v in file_values])
	some v in file_values
	v.key == last
}

file_minlen := v.value if {
	first := min(malformed_keys)
	some v in file_values
	v.key == first
}

# Active "password ... pam_pwquality.so args" lines (PAM comments run from "#" to the line end) of a stack ("-password" too), as word lists.
module_lines(stack) := [words |
	some line in split(object.get(files, stack, ""), "\n")
	words := regex.split(`\s+`, trim_space(split(line, "#")[0]))
	trim_prefix(words[0], "-") == "password"
	some k, word in words
	k > 0
	endswith(word, "pam_pwquality.so")
]

# The last minlen= argument of the module line, else the files' value.
effective_minlen(words) := v if {
	args := [substring(w, 7, -1) | some w in words; startswith(lower(w), "minlen=")]
	count(args) > 0
	v := args[count(args) - 1]
}

effective_minlen(words) := file_minlen if {
	not some_minlen_arg(words)
}

some_minlen_arg(words) if {
	some w in words
	startswith(lower(w), "minlen=")
}
