"""One unit per control the generator instantiates, keyed by CIS id."""

from ciso.generator.bindings import BindingControl
from ciso.generator.controls import (
    added_capabilities,
    bind_impersonate_escalate,
    capabilities_assigned,
    cluster_admin,
    create_persistent_volumes,
    create_pods,
    csr_approval,
    default_namespace,
    default_service_account,
    host_ipc,
    host_network,
    host_path,
    host_pid,
    host_ports,
    net_raw,
    node_proxy,
    privilege_escalation,
    privileged,
    rbac_wildcards,
    root_containers,
    sa_token_automount,
    sa_token_creation,
    seccomp_profile,
    secrets_access,
    secrets_as_files,
    security_context,
    webhook_configurations,
)
from ciso.generator.model import Control
from ciso.generator.placement import PlacementControl
from ciso.generator.rbac import RbacControl

CONTROLS: dict[str, Control | RbacControl | BindingControl | PlacementControl] = {
    unit.CONTROL.cis_id: unit.CONTROL
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
    )
}
