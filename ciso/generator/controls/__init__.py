"""One unit per control the generator instantiates, keyed by CIS id."""

from ciso.generator.auditd import AuditdControl
from ciso.generator.bindings import BindingControl
from ciso.generator.controls import (
    added_capabilities,
    auditd_keep_logs,
    bind_impersonate_escalate,
    capabilities_assigned,
    cluster_admin,
    cramfs_disabled,
    create_persistent_volumes,
    create_pods,
    cron_restricted,
    csr_approval,
    default_namespace,
    default_service_account,
    host_ipc,
    host_network,
    host_path,
    host_pid,
    host_ports,
    login_pass_max_days,
    login_pass_warn_age,
    namespace_network_policies,
    net_raw,
    node_proxy,
    privilege_escalation,
    privileged,
    pwquality_minlen,
    rbac_wildcards,
    root_containers,
    sa_token_automount,
    sa_token_creation,
    seccomp_profile,
    secrets_access,
    secrets_as_files,
    security_context,
    shadow_permissions,
    sshd_config_permissions,
    sshd_ignore_rhosts,
    sshd_login_grace_time,
    sshd_max_auth_tries,
    sshd_permit_empty_passwords,
    sshd_permit_root_login,
    sshd_x11_forwarding,
    sysctl_ip_forward,
    system_masters,
    webhook_configurations,
    windows_host_process,
)
from ciso.generator.login_defs import LoginDefsControl
from ciso.generator.model import Control
from ciso.generator.modprobe import ModuleControl
from ciso.generator.network import NamespaceControl
from ciso.generator.permissions import PermissionsControl
from ciso.generator.placement import PlacementControl
from ciso.generator.pwquality import PwqualityControl
from ciso.generator.rbac import RbacControl
from ciso.generator.sshd import SshdControl
from ciso.generator.sysctl import SysctlControl

#: A RHEL 9 control: its instances are host trees.
HostControl = (
    SshdControl
    | LoginDefsControl
    | AuditdControl
    | SysctlControl
    | ModuleControl
    | PermissionsControl
    | PwqualityControl
)
AnyControl = (
    Control | RbacControl | BindingControl | PlacementControl | NamespaceControl | HostControl
)

#: The RHEL 9 controls: host trees in the rhel9-ansible-opa class.
HOST_CONTROLS = (
    SshdControl,
    LoginDefsControl,
    AuditdControl,
    SysctlControl,
    ModuleControl,
    PermissionsControl,
    PwqualityControl,
)


def key(control: AnyControl) -> str:
    """How ``--controls`` names a control: its CIS id, prefixed with ``rhel9-`` for the RHEL 9
    benchmark (whose ids 5.2.7, 5.2.11... are also Kubernetes ones)."""
    host = isinstance(control, HOST_CONTROLS)
    return f"rhel9-{control.cis_id}" if host else control.cis_id


CONTROLS: dict[str, AnyControl] = {
    key(unit.CONTROL): unit.CONTROL
    for unit in (
        privileged,
        host_pid,
        host_ipc,
        host_network,
        privilege_escalation,
        added_capabilities,
        host_path,
        net_raw,
        host_ports,
        root_containers,
        capabilities_assigned,
        seccomp_profile,
        security_context,
        secrets_as_files,
        default_service_account,
        sa_token_automount,
        secrets_access,
        rbac_wildcards,
        create_pods,
        create_persistent_volumes,
        node_proxy,
        cluster_admin,
        default_namespace,
        bind_impersonate_escalate,
        csr_approval,
        webhook_configurations,
        sa_token_creation,
        system_masters,
        windows_host_process,
        namespace_network_policies,
        sshd_permit_root_login,
        sshd_permit_empty_passwords,
        sshd_ignore_rhosts,
        sshd_x11_forwarding,
        sshd_max_auth_tries,
        sshd_login_grace_time,
        login_pass_max_days,
        login_pass_warn_age,
        auditd_keep_logs,
        sysctl_ip_forward,
        cramfs_disabled,
        cron_restricted,
        sshd_config_permissions,
        pwquality_minlen,
        shadow_permissions,
    )
}
