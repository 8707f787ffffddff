# CIS RHEL 9 4.1.2.2: ensure audit logs are not automatically deleted.
# auditd.conf is "keyword = value" per line (spaces around "=" optional, "#" starts a comment
# line); auditd compares keywords and action values case-insensitively. max_log_file_action must
# be keep_logs; unset means ROTATE and violates. A keyword given twice is ambiguous to a reader
# (auditd applies the lines in order, so the last one is in force), so every occurrence must be
# keep_logs: the policy does not depend on which one wins.
#
# Input (collected_data.json): {"auditd_conf": "<text of /etc/audit/auditd.conf>"}
package check

import rego.v1

default result := true

actions := [lower(m[2]) |
	some line in split(object.get(input, "auditd_conf", ""), "\n")
	some m in regex.find_all_string_submatch_n(`^\s*([A-Za-z_]+)\s*=\s*(\S*)`, line, 1)
	lower(m[1]) == "max_log_file_action"
]

result := false if count(actions) == 0

result := false if {
	some action in actions
	action != "keep_logs"
}
