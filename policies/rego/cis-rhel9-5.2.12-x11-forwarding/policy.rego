# CIS RHEL9 5.2.12: ensure SSH X11 forwarding is disabled. Input: collected_data.json with the
# sshd_config line, e.g. {"x11_forwarding": "X11Forwarding yes"}; sshd's default is "no".
package check

import rego.v1

default result := true

result := false if {
	words := split(lower(trim_space(input.x11_forwarding)), " ")
	words[0] == "x11forwarding"
	words[count(words) - 1] == "yes"
}
