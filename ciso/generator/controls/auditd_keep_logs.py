"""CIS RHEL 9 4.1.2.2: auditd keeps every log (max_log_file_action = keep_logs)."""

from ciso.generator.auditd import AuditdControl

CONTROL = AuditdControl(
    cis_id="4.1.2.2",
    builtin_id="cis-rhel9-4.1.2.2-audit-keep-logs",
    keyword="max_log_file_action",
    complies=lambda value: value.lower() == "keep_logs",
    bad_values=("ROTATE", "rotate", "ignore", "syslog", "suspend"),
    good_values=("keep_logs", "KEEP_LOGS", "Keep_Logs"),
    phrasings=(
        "The audit daemon must never delete or overwrite an old log when the current one is "
        "full: max_log_file_action in /etc/audit/auditd.conf must be keep_logs on every line "
        "that sets it (keywords and values in any case). Unset is a finding: the default, "
        "ROTATE, deletes the oldest log.",
        "Finding criteria: the host fails when /etc/audit/auditd.conf does not set "
        "max_log_file_action, or when any line setting it (keyword = value, spaces optional, "
        "case ignored) gives another value than keep_logs. Comments are not evidence.",
        "Audit logs hold the evidence of past events and must not be removed automatically. "
        "Ensure max_log_file_action is set to keep_logs in auditd.conf (every occurrence, "
        "case-insensitive; unset means ROTATE).",
    ),
)
