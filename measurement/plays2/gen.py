#!/usr/bin/env python3
"""plays2: held-out CISO scenarios with reference answers (stdlib only).

python gen.py OUT   writes OUT/<scenario>/{scenario.yaml, violating/, compliant/, solution/}
10 RHEL 9 scenarios (class rhel9-ansible-opa) and 10 Kubernetes scenarios (class opa-static).
Deterministic: the same bytes on every run.
"""
import os
import sys
import textwrap


def d(s):
    """dedent and strip the leading newline"""
    return textwrap.dedent(s).lstrip("\n")


SCEN = []  # list of dicts: id, meta (scenario.yaml text), files {relpath: (content, mode)}


def add(sid, meta, files):
    SCEN.append((sid, meta, files))


# --------------------------------------------------------------------------------------------
# shared RHEL 9 host pieces
# --------------------------------------------------------------------------------------------

SSHD_HEAD = d("""
    #	$OpenBSD: sshd_config,v 1.104 2021/07/02 05:11:21 dtucker Exp $

    # This is the sshd server system-wide configuration file.  See
    # sshd_config(5) for more information.

    # This sshd was compiled with PATH=/usr/local/bin:/usr/bin:/usr/local/sbin:/usr/sbin

    # The strategy used for options in the default sshd_config shipped with
    # OpenSSH is to specify options with their default value where
    # possible, but leave them commented.  Uncommented options override the
    # default value.

    # To modify the system-wide sshd configuration, create a  *.conf  file under
    #  /etc/ssh/sshd_config.d/  which will be automatically included below
    Include /etc/ssh/sshd_config.d/*.conf

    # If you want to change the port on a SELinux system, you have to tell
    # SELinux about this change.
    # semanage port -a -t ssh_port_t -p tcp #PORTNUMBER
    #
    #Port 22
    #AddressFamily any
    #ListenAddress 0.0.0.0
    #ListenAddress ::

    #HostKey /etc/ssh/ssh_host_rsa_key
    #HostKey /etc/ssh/ssh_host_ecdsa_key
    #HostKey /etc/ssh/ssh_host_ed25519_key

    # Ciphers and keying
    #RekeyLimit default none

    # Logging
    #SyslogFacility AUTH
    #LogLevel INFO

    # Authentication:

    #LoginGraceTime 2m
    """)

SSHD_TAIL = d("""
    #StrictModes yes
    #MaxSessions 10

    #PubkeyAuthentication yes

    # The default is to check both .ssh/authorized_keys and .ssh/authorized_keys2
    # but this is overridden so installations will only check .ssh/authorized_keys
    AuthorizedKeysFile	.ssh/authorized_keys

    #AuthorizedPrincipalsFile none

    # To disable tunneled clear text passwords, change to no here!
    #PasswordAuthentication yes
    #PermitEmptyPasswords no

    # Change to no to disable s/key passwords
    #KbdInteractiveAuthentication yes

    #AllowAgentForwarding yes
    #AllowTcpForwarding yes
    #GatewayPorts no
    #X11Forwarding no
    #X11DisplayOffset 10
    #X11UseLocalhost yes
    #PermitTTY yes
    #PrintMotd yes
    #PrintLastLog yes
    #TCPKeepAlive yes
    #PermitUserEnvironment no
    #Compression delayed
    #ClientAliveInterval 0
    #ClientAliveCountMax 3
    #UseDNS no
    #PidFile /var/run/sshd.pid
    #MaxStartups 10:30:100
    #PermitTunnel no
    #ChrootDirectory none
    #VersionAddendum none

    # no default banner path
    #Banner none

    # override default of no subsystems
    Subsystem	sftp	/usr/libexec/openssh/sftp-server
    """)

REDHAT_50 = d("""
    # This system is following system-wide crypto policy. The changes to
    # crypto properties (Ciphers, MACs, ...) will not have any effect in
    # this or following included files. To override some configuration option,
    # write it before this block or in the sshd_config.d/ files.
    Include /etc/crypto-policies/back-ends/opensshserver.config

    SyslogFacility AUTHPRIV

    ChallengeResponseAuthentication no

    GSSAPIAuthentication yes
    GSSAPICleanupCredentials no

    UsePAM yes

    X11Forwarding yes

    # It is recommended to use pam_motd in /etc/pam.d/sshd instead of PrintMotd,
    # as it is more configurable and versatile than the built-in version.
    PrintMotd no
    """)

PASSWD_BASE = d("""
    root:x:0:0:root:/root:/bin/bash
    bin:x:1:1:bin:/bin:/sbin/nologin
    daemon:x:2:2:daemon:/sbin:/sbin/nologin
    adm:x:3:4:adm:/var/adm:/sbin/nologin
    lp:x:4:7:lp:/var/spool/lpd:/sbin/nologin
    sync:x:5:0:sync:/sbin:/bin/sync
    shutdown:x:6:0:shutdown:/sbin:/sbin/shutdown
    halt:x:7:0:halt:/sbin:/sbin/halt
    mail:x:8:12:mail:/var/spool/mail:/sbin/nologin
    operator:x:11:0:operator:/root:/sbin/nologin
    games:x:12:100:games:/usr/games:/sbin/nologin
    ftp:x:14:50:FTP User:/var/ftp:/sbin/nologin
    nobody:x:65534:65534:Kernel Overflow User:/:/sbin/nologin
    systemd-coredump:x:999:997:systemd Core Dumper:/:/sbin/nologin
    dbus:x:81:81:System message bus:/:/sbin/nologin
    polkitd:x:998:996:User for polkitd:/:/sbin/nologin
    tss:x:59:59:Account used for TPM access:/dev/null:/sbin/nologin
    sssd:x:997:994:User for sssd:/:/sbin/nologin
    chrony:x:996:993::/var/lib/chrony:/sbin/nologin
    sshd:x:74:74:Privilege-separated SSH:/usr/share/empty.sshd:/sbin/nologin
    """)

SHADOW_BASE = d("""
    root:$6$Qx0rW1zB$u3m8XfJ2qK9pVbN0cT4yH7eL1sD5aG6wR8iO2jU3kM9nB4vC7xZ0lP1oI2uY3tR5eW6qA7sD8fG9hJ0kL1zX2c:19871:0:99999:7:::
    bin:*:19469:0:99999:7:::
    daemon:*:19469:0:99999:7:::
    adm:*:19469:0:99999:7:::
    lp:*:19469:0:99999:7:::
    sync:*:19469:0:99999:7:::
    shutdown:*:19469:0:99999:7:::
    halt:*:19469:0:99999:7:::
    mail:*:19469:0:99999:7:::
    operator:*:19469:0:99999:7:::
    games:*:19469:0:99999:7:::
    ftp:*:19469:0:99999:7:::
    nobody:*:19469:0:99999:7:::
    systemd-coredump:!!:19871::::::
    dbus:!!:19871::::::
    polkitd:!!:19871::::::
    tss:!!:19871::::::
    sssd:!!:19871::::::
    chrony:!!:19871::::::
    sshd:!!:19871::::::
    """)

NSSWITCH = d("""
    # Generated by authselect
    # Do not modify this file manually, use authselect instead. Any user changes will be
    # overwritten. You can see the current config with authselect current.
    passwd:     files
    shadow:     files
    group:      files
    hosts:      files dns myhostname
    services:   files
    netgroup:   files
    automount:  files
    aliases:    files
    ethers:     files
    gshadow:    files
    networks:   files dns
    protocols:  files
    publickey:  files
    rpc:        files
    """)


def host(common, specific):
    """merge dicts of host files"""
    out = dict(common)
    out.update(specific)
    return out


def rhel(sid, cis, requirement, truth, notes, viol, comp, playbook, policy, attrs_v=None, attrs_c=None,
         title=None):
    meta = "id: %s\n" % sid
    meta += 'cis_id: "%s"\n' % cis
    meta += "platform: rhel9\n"
    if title:
        meta += "title: %s\n" % yq(title)
    meta += "requirement: %s\n" % yq(requirement)
    meta += "classes: [rhel9-ansible-opa]\n"
    meta += "violating_resources:\n" + "".join('  - "%s"\n' % t for t in truth)
    meta += "notes: %s\n" % yq(notes)
    files = {}
    for k, v in viol.items():
        files["violating/host" + k] = v
    for k, v in comp.items():
        files["compliant/host" + k] = v
    if attrs_v:
        files["violating/host-attributes.yaml"] = attrs_v
    if attrs_c:
        files["compliant/host-attributes.yaml"] = attrs_c
    files["solution/playbook.yml"] = playbook
    files["solution/policy.rego"] = policy
    add(sid, meta, files)


def yq(s):
    """a YAML double-quoted scalar"""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


# --------------------------------------------------------------------------------------------
# R1  sshd MaxAuthTries (command + register + changed_when, set_fact, copy)
# --------------------------------------------------------------------------------------------

r1_v = SSHD_HEAD + "#PermitRootLogin prohibit-password\n#StrictModes yes\nMaxAuthTries 6\n" + SSHD_TAIL
r1_c = SSHD_HEAD + "#PermitRootLogin prohibit-password\n#StrictModes yes\n#MaxAuthTries 6\nMaxAuthTries 4\n" + SSHD_TAIL
rhel(
    "rhel-sshd-maxauthtries", "5.2.18",
    "Our SSH daemons must limit authentication attempts: MaxAuthTries has to be 4 or lower on every RHEL 9 "
    "server (CIS: Ensure SSH MaxAuthTries is set to 4 or less).",
    ["sshd//MaxAuthTries"],
    "violating: MaxAuthTries 6 uncommented in /etc/ssh/sshd_config; compliant: the commented default "
    "'#MaxAuthTries 6' stays and 'MaxAuthTries 4' (the bound itself) is set.",
    {"/etc/ssh/sshd_config": r1_v, "/etc/ssh/sshd_config.d/50-redhat.conf": REDHAT_50},
    {"/etc/ssh/sshd_config": r1_c, "/etc/ssh/sshd_config.d/50-redhat.conf": REDHAT_50},
    d("""
    ---
    - name: Gather sshd MaxAuthTries for compliance check
      hosts: rhel9_servers
      gather_facts: false
      become: true

      tasks:
        - name: Read active MaxAuthTries lines
          ansible.builtin.command: grep -rhiE '^[[:space:]]*MaxAuthTries' /etc/ssh/sshd_config.d/ /etc/ssh/sshd_config
          register: maxauth_grep
          changed_when: false
          failed_when: maxauth_grep.rc > 1

        - name: Parse the configured value
          ansible.builtin.set_fact:
            maxauthtries_values: "{{ maxauth_grep.stdout_lines | map('regex_replace', '^\\\\s*\\\\S+\\\\s+', '') | map('int') | list }}"

        - name: Save collected data
          ansible.builtin.copy:
            content: "{{ {'MaxAuthTries': maxauthtries_values, 'raw': maxauth_grep.stdout_lines} | to_nice_json }}"
            dest: "{{ playbook_dir }}/collected_data.json"
          delegate_to: localhost
    """),
    d("""
    package check

    import rego.v1

    # sshd default is 6 when nothing is set
    effective := input.MaxAuthTries[0] if count(input.MaxAuthTries) > 0
    effective := 6 if count(input.MaxAuthTries) == 0

    default result := false

    result if effective <= 4
    """),
    attrs_v='/etc/ssh/sshd_config: {mode: "0600", owner: root, group: root}\n',
    attrs_c='/etc/ssh/sshd_config: {mode: "0600", owner: root, group: root}\n',
)

# --------------------------------------------------------------------------------------------
# R2  /etc/passwd permissions (stat get_checksum false, set_fact, copy)
# --------------------------------------------------------------------------------------------

r2_files = {"/etc/passwd": PASSWD_BASE, "/etc/passwd-": PASSWD_BASE, "/etc/group": "root:x:0:\nbin:x:1:\n"}
rhel(
    "rhel-passwd-permissions", "6.1.1",
    "Audit finding follow-up: /etc/passwd must be mode 644 or more restrictive (no write for group or "
    "others, no execute bits), owned by root:root.",
    ["passwd//mode"],
    "violating: /etc/passwd 0664 (group-writable); /etc/passwd- is 0600 in both (a backup, near miss); "
    "compliant: /etc/passwd 0644.",
    r2_files, r2_files,
    d("""
    - hosts: rhel9_servers
      gather_facts: no
      tasks:
        - name: stat /etc/passwd
          stat:
            path: /etc/passwd
            get_checksum: false
            get_mime: false
            get_attributes: false
          register: passwd_stat

        - name: Build evidence
          set_fact:
            evidence:
              path: "{{ passwd_stat.stat.path }}"
              exists: "{{ passwd_stat.stat.exists }}"
              mode: "{{ passwd_stat.stat.mode }}"
              owner: "{{ passwd_stat.stat.pw_name }}"
              group: "{{ passwd_stat.stat.gr_name }}"
              bits:
                xusr: "{{ passwd_stat.stat.xusr }}"
                wgrp: "{{ passwd_stat.stat.wgrp }}"
                xgrp: "{{ passwd_stat.stat.xgrp }}"
                woth: "{{ passwd_stat.stat.woth }}"
                xoth: "{{ passwd_stat.stat.xoth }}"

        - name: Write collected_data.json
          local_action:
            module: copy
            content: "{{ evidence | to_json }}"
            dest: ./collected_data.json
    """),
    d("""
    package check

    default result := false

    result if {
        input.exists
        not input.bits.xusr
        not input.bits.wgrp
        not input.bits.xgrp
        not input.bits.woth
        not input.bits.xoth
    }
    """),
    attrs_v='/etc/passwd: {mode: "0664", owner: root, group: root}\n/etc/passwd-: {mode: "0600", owner: root, group: root}\n',
    attrs_c='/etc/passwd: {mode: "0644", owner: root, group: root}\n/etc/passwd-: {mode: "0600", owner: root, group: root}\n',
)

# --------------------------------------------------------------------------------------------
# R3  login.defs PASS_MAX_DAYS (slurp + b64decode + regex filters)
# --------------------------------------------------------------------------------------------


def login_defs(maxdays):
    return d("""
    #
    # Please note that the parameters in this configuration file control the
    # behavior of the tools from the shadow-utils component. None of these
    # tools uses the PAM mechanism, and the utilities that use PAM (such as the
    # passwd command) should therefore be configured elsewhere. Refer to
    # /etc/pam.d/system-auth for more information.
    #

    # Directory where mailboxes reside, _or_ name of file, relative to the
    # home directory.  If you _do_ define both, MAIL_DIR takes precedence.
    #
    MAIL_DIR	/var/spool/mail
    #MAIL_FILE	.mail

    # Password aging controls:
    #
    #	PASS_MAX_DAYS	Maximum number of days a password may be used.
    #	PASS_MIN_DAYS	Minimum number of days allowed between password changes.
    #	PASS_MIN_LEN	Minimum acceptable password length.
    #	PASS_WARN_AGE	Number of days warning given before a password expires.
    #
    PASS_MAX_DAYS	%s
    PASS_MIN_DAYS	1
    PASS_WARN_AGE	7

    #
    # Min/max values for automatic uid selection in useradd(8)
    #
    UID_MIN                  1000
    UID_MAX                 60000
    # System accounts
    SYS_UID_MIN               201
    SYS_UID_MAX               999

    # The permission mask is initialized to this value. If not specified,
    # the permission mask will be initialized to 022.
    UMASK		022

    # Use SHA512 to encrypt password.
    ENCRYPT_METHOD SHA512

    HOME_MODE	0700
    USERGROUPS_ENAB yes
    CREATE_HOME	yes
    """) % maxdays


rhel(
    "rhel-pass-max-days", "5.6.1.1",
    "Ensure password expiration is 365 days or less: PASS_MAX_DAYS in /etc/login.defs must be set and "
    "no greater than 365.",
    ["login.defs//PASS_MAX_DAYS"],
    "violating: PASS_MAX_DAYS 99999 (the RHEL default); compliant: 365 exactly. The header comment "
    "mentions PASS_MAX_DAYS too.",
    {"/etc/login.defs": login_defs("99999")},
    {"/etc/login.defs": login_defs("365")},
    d("""
    ---
    - name: CIS 5.6.1.1 evidence - password aging
      hosts: rhel9_servers
      gather_facts: false
      vars:
        out_file: "{{ playbook_dir }}/collected_data.json"
      tasks:
        - name: Fetch login.defs
          ansible.builtin.slurp:
            src: /etc/login.defs
          register: login_defs_raw

        - name: Extract password aging settings
          ansible.builtin.set_fact:
            aging: >-
              {{ dict(login_defs_raw.content | b64decode | regex_findall('(?m)^\\s*(PASS_(?:MAX|MIN)_DAYS|PASS_WARN_AGE)\\s+(\\S+)')) }}

        - name: Record
          ansible.builtin.copy:
            dest: "{{ out_file }}"
            content: |
              {{ {'source': '/etc/login.defs', 'settings': aging} | to_nice_json(indent=2) }}
          delegate_to: localhost
    """),
    d("""
    package check

    import rego.v1

    default result := false

    result if {
        days := to_number(input.settings.PASS_MAX_DAYS)
        days > 0
        days <= 365
    }
    """),
)

# --------------------------------------------------------------------------------------------
# R4  empty password fields in /etc/shadow (getent shadow)
# --------------------------------------------------------------------------------------------

r4_v = SHADOW_BASE + "svc_backup::19902:0:99999:7:::\nalice:$6$N8b2$Ht0e9vXjWq1yZ2mP3kL4nO5bQ6rS7tU8vW9xY0zA1bC2dE3fG4hI5jK6lM7nO8pQ9rS0tU1vW2xY3zA4bC5dE6f:19903:1:365:7:::\n"
r4_c = SHADOW_BASE + "svc_backup:!!:19902:0:99999:7:::\nalice:$6$N8b2$Ht0e9vXjWq1yZ2mP3kL4nO5bQ6rS7tU8vW9xY0zA1bC2dE3fG4hI5jK6lM7nO8pQ9rS0tU1vW2xY3zA4bC5dE6f:19903:1:365:7:::\n"
r4_pw = PASSWD_BASE + "svc_backup:x:1001:1001:Backup service:/var/lib/backup:/bin/bash\nalice:x:1002:1002:Alice Ops:/home/alice:/bin/bash\n"
rhel(
    "rhel-shadow-empty-password", "6.2.2",
    "No local account may have an empty password field in /etc/shadow (CIS: Ensure /etc/shadow "
    "password fields are not empty). Locked (!, !!) and disabled (*) accounts are fine.",
    ["shadow//svc_backup"],
    "violating: svc_backup has an empty second field; compliant: svc_backup is locked with '!!'. "
    "Many system accounts have '!!' or '*' in both.",
    {"/etc/shadow": r4_v, "/etc/passwd": r4_pw, "/etc/nsswitch.conf": NSSWITCH},
    {"/etc/shadow": r4_c, "/etc/passwd": r4_pw, "/etc/nsswitch.conf": NSSWITCH},
    d("""
    - name: Check for accounts with empty passwords
      hosts: rhel9_servers
      gather_facts: false
      tasks:
        - name: Read the shadow database
          ansible.builtin.getent:
            database: shadow

        - name: Accounts whose password field is empty
          ansible.builtin.set_fact:
            empty_password_accounts: "{{ getent_shadow | dict2items | selectattr('value.0', 'equalto', '') | map(attribute='key') | list }}"
            account_count: "{{ getent_shadow | length }}"

        - name: Dump results for OPA
          ansible.builtin.copy:
            content: "{{ {'empty_password_accounts': empty_password_accounts, 'accounts_checked': account_count | int} | to_json }}"
            dest: "{{ playbook_dir }}/collected_data.json"
            mode: "0644"
          delegate_to: localhost
    """),
    d("""
    package check

    import rego.v1

    default result := false

    result if {
        input.accounts_checked > 0
        count(input.empty_password_accounts) == 0
    }
    """),
)

# --------------------------------------------------------------------------------------------
# R5  root is the only UID 0 account (getent passwd, loop + set_fact accumulation)
# --------------------------------------------------------------------------------------------

r5_v = PASSWD_BASE + "admin:x:0:0:Emergency admin:/home/admin:/bin/bash\nbob:x:1000:1000:Bob:/home/bob:/bin/bash\n"
r5_c = PASSWD_BASE + "admin:x:1001:0:Emergency admin:/home/admin:/bin/bash\nbob:x:1000:1000:Bob:/home/bob:/bin/bash\n"
rhel(
    "rhel-uid0-only-root", "6.2.9",
    "Ensure root is the only UID 0 account.",
    ["passwd//admin"],
    "violating: 'admin' has UID 0; compliant: 'admin' has UID 1001 but keeps GID 0 (near miss: GID 0 "
    "is not UID 0; sync, shutdown, halt, operator have GID 0 in both).",
    {"/etc/passwd": r5_v, "/etc/nsswitch.conf": NSSWITCH},
    {"/etc/passwd": r5_c, "/etc/nsswitch.conf": NSSWITCH},
    d("""
    - hosts: rhel9_servers
      name: uid 0 accounts
      gather_facts: false
      tasks:
        - getent:
            database: passwd

        - name: collect every account with uid 0
          set_fact:
            uid0: "{{ uid0 | default([]) + [item.key] }}"
          loop: "{{ getent_passwd | dict2items }}"
          loop_control:
            label: "{{ item.key }}"
          when: item.value[1] | int == 0

        - copy:
            dest: "{{ playbook_dir }}/collected_data.json"
            content: "{{ {'uid0_accounts': uid0 | default([]) | sort} | to_json }}"
          delegate_to: localhost
    """),
    d("""
    package check

    default result := false

    result if {
        input.uid0_accounts == ["root"]
    }
    """),
)

# --------------------------------------------------------------------------------------------
# R6  core dumps restricted (find with patterns, slurp in a loop)
# --------------------------------------------------------------------------------------------

LIMITS_CONF = d("""
    # /etc/security/limits.conf
    #
    #This file sets the resource limits for the users logged in via PAM.
    #It does not affect resource limits of the system services.
    #
    #Also note that configuration files in /etc/security/limits.d directory,
    #which are read in alphabetical order, override the settings in this
    #file in case the domain is the same or more specific.
    #
    #Each line describes a limit for a user in the form:
    #
    #<domain>        <type>  <item>  <value>
    #
    #<type> can have the two values:
    #        - "soft" for enforcing the soft limits
    #        - "hard" for enforcing hard limits
    #
    #<item> can be one of the following:
    #        - core - limits the core file size (KB)
    #

    #<domain>      <type>  <item>         <value>
    #

    #*               soft    core            0
    #*               hard    rss             10000
    #@student        hard    nproc           20
    #@faculty        soft    nproc           20
    #@faculty        hard    nproc           50
    #ftp             hard    nproc           0
    #@student        -       maxlogins       4

    # End of file
    """)
NPROC = d("""
    # Default limit for number of user's processes to prevent
    # accidental fork bombs.
    # See rhbz #432903 for reasoning.

    *          soft    nproc     4096
    root       soft    nproc     unlimited
    """)
rhel(
    "rhel-core-dumps-restricted", "1.5.1",
    "Core dumps must be restricted for all users: a hard core limit of 0 for the * domain has to be set in "
    "/etc/security/limits.conf or a file under /etc/security/limits.d/.",
    ["limits//core"],
    "violating: only commented examples and a 'soft core 0' for * (a soft limit the user can raise), plus "
    "a 'hard core 0' for the @developers group only; compliant: 90-coredump.conf adds '* hard core 0'.",
    {"/etc/security/limits.conf": LIMITS_CONF, "/etc/security/limits.d/20-nproc.conf": NPROC,
     "/etc/security/limits.d/50-dev.conf": "*          soft    core      0\n@developers  hard  core  0\n"},
    {"/etc/security/limits.conf": LIMITS_CONF, "/etc/security/limits.d/20-nproc.conf": NPROC,
     "/etc/security/limits.d/50-dev.conf": "*          soft    core      0\n@developers  hard  core  0\n",
     "/etc/security/limits.d/90-coredump.conf": "# CIS 1.5.1\n*     hard    core    0\n"},
    d("""
    ---
    - name: Core dump limits
      hosts: rhel9_servers
      gather_facts: false

      tasks:
        - name: Find limits.d drop-ins
          ansible.builtin.find:
            paths: /etc/security/limits.d
            patterns: "*.conf"
            file_type: file
          register: limits_dropins

        - name: Read limits.conf and every drop-in
          ansible.builtin.slurp:
            src: "{{ item }}"
          loop: "{{ ['/etc/security/limits.conf'] + (limits_dropins.files | map(attribute='path') | sort) }}"
          register: limits_files

        - name: Keep only active core lines
          ansible.builtin.set_fact:
            core_limits: >-
              {{ core_limits | default([]) + [{'file': item.source,
                  'lines': (item.content | b64decode).splitlines()
                           | select('match', '^\\s*[^#\\s]\\S*\\s+\\S+\\s+core\\s')
                           | map('trim') | map('regex_replace', '\\s+', ' ') | list}] }}
          loop: "{{ limits_files.results }}"
          loop_control:
            label: "{{ item.source }}"

        - name: Write collected_data.json next to the playbook
          ansible.builtin.copy:
            content: "{{ {'core_limits': core_limits} | to_nice_json }}"
            dest: "{{ playbook_dir }}/collected_data.json"
          delegate_to: localhost
    """),
    d("""
    package check

    import rego.v1

    hard_zero_for_all if {
        some f in input.core_limits
        some line in f.lines
        parts := split(line, " ")
        parts[0] == "*"
        parts[1] in {"hard", "-"}
        parts[2] == "core"
        parts[3] == "0"
    }

    default result := false

    result if hard_zero_for_all
    """),
)

# --------------------------------------------------------------------------------------------
# R7  cramfs disabled (shell with pipes, register, failed_when, assert-free)
# --------------------------------------------------------------------------------------------

rhel(
    "rhel-cramfs-disabled", "1.1.1.1",
    "Ensure mounting of cramfs filesystems is disabled: modprobe must refuse to load cramfs (an 'install "
    "cramfs /bin/false' or '/bin/true' rule) and cramfs must be blacklisted, in /etc/modprobe.d/.",
    ["modprobe//cramfs"],
    "violating: cramfs is blacklisted but the install line is commented out; squashfs and udf have both "
    "lines (distractors); compliant: the install line is active.",
    {"/etc/modprobe.d/cramfs.conf": "# CIS 1.1.1.1\n#install cramfs /bin/false\nblacklist cramfs\n",
     "/etc/modprobe.d/squashfs.conf": "install squashfs /bin/false\nblacklist squashfs\n",
     "/etc/modprobe.d/udf.conf": "install udf /bin/true\nblacklist udf\n",
     "/etc/modprobe.d/firewalld-sysctls.conf": "install nf_conntrack /usr/sbin/modprobe --ignore-install nf_conntrack $CMDLINE_OPTS && /usr/sbin/sysctl --quiet --pattern 'net[.]netfilter[.]nf_conntrack.*' --system\n"},
    {"/etc/modprobe.d/cramfs.conf": "# CIS 1.1.1.1\ninstall cramfs /bin/false\nblacklist cramfs\n",
     "/etc/modprobe.d/squashfs.conf": "install squashfs /bin/false\nblacklist squashfs\n",
     "/etc/modprobe.d/udf.conf": "install udf /bin/true\nblacklist udf\n",
     "/etc/modprobe.d/firewalld-sysctls.conf": "install nf_conntrack /usr/sbin/modprobe --ignore-install nf_conntrack $CMDLINE_OPTS && /usr/sbin/sysctl --quiet --pattern 'net[.]netfilter[.]nf_conntrack.*' --system\n"},
    d("""
    - name: cramfs module status
      hosts: rhel9_servers
      gather_facts: no
      tasks:
        - name: Look for install rules for cramfs
          shell: "cat /etc/modprobe.d/*.conf 2>/dev/null | grep -E '^\\\\s*install\\\\s+cramfs\\\\s' || true"
          register: cramfs_install
          changed_when: false

        - name: Look for blacklist entries for cramfs
          shell: "cat /etc/modprobe.d/*.conf 2>/dev/null | grep -E '^\\\\s*blacklist\\\\s+cramfs\\\\s*$' || true"
          register: cramfs_blacklist
          changed_when: false

        - name: Save
          copy:
            content: |
              {"module": "cramfs",
               "install_rules": {{ cramfs_install.stdout_lines | to_json }},
               "blacklist_rules": {{ cramfs_blacklist.stdout_lines | to_json }}}
            dest: "{{ playbook_dir }}/collected_data.json"
          delegate_to: localhost
    """),
    d("""
    package check

    import rego.v1

    install_disabled if {
        some line in input.install_rules
        regex.match(`^\\s*install\\s+cramfs\\s+/(usr/)?bin/(false|true)\\s*$`, line)
    }

    blacklisted if count(input.blacklist_rules) > 0

    default result := false

    result if {
        install_disabled
        blacklisted
    }
    """),
)

# --------------------------------------------------------------------------------------------
# R8  PermitRootLogin through the drop-in directory (block/rescue/always, find, slurp loop)
# --------------------------------------------------------------------------------------------

r8_main = SSHD_HEAD + "#PermitRootLogin prohibit-password\n#StrictModes yes\n#MaxAuthTries 6\n" + SSHD_TAIL
rhel(
    "rhel-sshd-root-login-dropin", "5.2.10",
    "Root must not be able to log in over SSH on our RHEL 9 hosts; check the effective PermitRootLogin, "
    "including the sshd_config.d drop-ins (CIS: Ensure SSH root login is disabled).",
    ["sshd//PermitRootLogin"],
    "violating: /etc/ssh/sshd_config.d/01-permitrootlogin.conf (the file the RHEL 9 installer writes) "
    "says 'PermitRootLogin yes'; the main file only has the commented default. compliant: the drop-in "
    "says 'PermitRootLogin no'. sshd takes the first value, drop-ins are included at the top of the "
    "main file in lexical order.",
    {"/etc/ssh/sshd_config": r8_main,
     "/etc/ssh/sshd_config.d/01-permitrootlogin.conf": "# This file has been generated by the Anaconda Installer.\n# Allow root to log in using ssh. Remove this file to opt-out.\nPermitRootLogin yes\n",
     "/etc/ssh/sshd_config.d/50-redhat.conf": REDHAT_50},
    {"/etc/ssh/sshd_config": r8_main,
     "/etc/ssh/sshd_config.d/01-permitrootlogin.conf": "# Hardened per CIS 5.2.10 (was: PermitRootLogin yes)\nPermitRootLogin no\n",
     "/etc/ssh/sshd_config.d/50-redhat.conf": REDHAT_50},
    d("""
    ---
    - name: Effective PermitRootLogin
      hosts: rhel9_servers
      gather_facts: false
      tasks:
        - name: Collect sshd configuration
          block:
            - name: Locate drop-in files
              ansible.builtin.find:
                paths: /etc/ssh/sshd_config.d
                patterns: ["*.conf"]
              register: sshd_dropins

            - name: Read configuration files in include order
              ansible.builtin.slurp:
                path: "{{ item }}"
              loop: "{{ (sshd_dropins.files | map(attribute='path') | sort) + ['/etc/ssh/sshd_config'] }}"
              register: sshd_files

            - name: Active PermitRootLogin values, in order
              ansible.builtin.set_fact:
                prl_values: >-
                  {{ sshd_files.results | map(attribute='content') | map('b64decode')
                     | map('regex_findall', '(?mi)^\\s*PermitRootLogin\\s+(\\S+)') | flatten }}
                read_error: false
          rescue:
            - name: Mark collection as failed
              ansible.builtin.set_fact:
                prl_values: []
                read_error: true
          always:
            - name: Write collected_data.json
              ansible.builtin.copy:
                content: "{{ {'permit_root_login': prl_values, 'read_error': read_error} | to_json }}"
                dest: "{{ playbook_dir }}/collected_data.json"
              delegate_to: localhost
    """),
    d("""
    package check

    import rego.v1

    # first occurrence wins in sshd; the built-in default is prohibit-password
    effective := lower(input.permit_root_login[0]) if count(input.permit_root_login) > 0

    effective := "prohibit-password" if count(input.permit_root_login) == 0

    default result := false

    result if {
        not input.read_error
        effective == "no"
    }
    """),
    attrs_v='/etc/ssh/sshd_config: {mode: "0600"}\n/etc/ssh/sshd_config.d/01-permitrootlogin.conf: {mode: "0600"}\n',
    attrs_c='/etc/ssh/sshd_config: {mode: "0600"}\n/etc/ssh/sshd_config.d/01-permitrootlogin.conf: {mode: "0600"}\n',
)

# --------------------------------------------------------------------------------------------
# R9  SELinux enforcing (lineinfile in check mode)
# --------------------------------------------------------------------------------------------


def selinux_config(mode):
    return d("""

    # This file controls the state of SELinux on the system.
    # SELINUX= can take one of these three values:
    #     enforcing - SELinux security policy is enforced.
    #     permissive - SELinux prints warnings instead of enforcing.
    #     disabled - No SELinux policy is loaded.
    # See also:
    # https://docs.fedoraproject.org/en-US/quick-docs/getting-started-with-selinux/#getting-started-with-selinux-selinux-states-and-modes
    #
    # NOTE: In earlier Fedora kernel builds, SELINUX=disabled would also
    # fully disable SELinux during boot. If you need a system with SELinux
    # fully disabled instead of SELinux running with no policy loaded, you
    # need to pass selinux=0 to the kernel command line. You can use grubby
    # to persistently set the bootloader to boot with selinux=0:
    #
    #    grubby --update-kernel ALL --args selinux=0
    #
    # To revert back to SELinux enabled:
    #
    #    grubby --update-kernel ALL --remove-args selinux
    #
    SELINUX=%s
    # SELINUXTYPE= can take one of these three values:
    #     targeted - Targeted processes are protected,
    #     minimum - Modification of targeted policy. Only selected processes are protected.
    #     mls - Multi Level Security protection.
    SELINUXTYPE=targeted

    """) % mode


rhel(
    "rhel-selinux-enforcing", "1.6.1.5",
    "Ensure the SELinux mode is enforcing in the persistent configuration (/etc/selinux/config).",
    ["selinux//SELINUX"],
    "violating: SELINUX=permissive; compliant: SELINUX=enforcing; comments mention all three modes and "
    "SELINUXTYPE=targeted shares the prefix.",
    {"/etc/selinux/config": selinux_config("permissive")},
    {"/etc/selinux/config": selinux_config("enforcing")},
    d("""
    - name: SELinux persistent mode (read-only check)
      hosts: rhel9_servers
      gather_facts: false
      tasks:
        - name: Would SELINUX=enforcing have to be written?
          ansible.builtin.lineinfile:
            path: /etc/selinux/config
            regexp: '^SELINUX='
            line: SELINUX=enforcing
          check_mode: true
          register: selinux_line

        - name: Current SELINUX line
          ansible.builtin.command: grep -E '^SELINUX=' /etc/selinux/config
          register: selinux_current
          changed_when: false
          failed_when: false

        - name: Save collected data
          ansible.builtin.copy:
            dest: "{{ playbook_dir }}/collected_data.json"
            content: "{{ {'selinux_config_needs_change': selinux_line.changed, 'current': selinux_current.stdout} | to_json }}"
          delegate_to: localhost
    """),
    d("""
    package check

    import rego.v1

    default result := false

    result if {
        input.selinux_config_needs_change == false
        input.current == "SELINUX=enforcing"
    }
    """),
)

# --------------------------------------------------------------------------------------------
# R10  auditd keeps logs (stat with checksum, command, block with assert / rescue)
# --------------------------------------------------------------------------------------------


def auditd_conf(action):
    return d("""
    #
    # This file controls the configuration of the audit daemon
    #

    local_events = yes
    write_logs = yes
    log_file = /var/log/audit/audit.log
    log_group = root
    log_format = ENRICHED
    flush = INCREMENTAL_ASYNC
    freq = 50
    max_log_file = 8
    num_logs = 5
    priority_boost = 4
    name_format = NONE
    ##name = mydomain
    max_log_file_action = %s
    space_left = 75
    space_left_action = SYSLOG
    verify_email = yes
    action_mail_acct = root
    admin_space_left = 50
    admin_space_left_action = SUSPEND
    disk_full_action = SUSPEND
    disk_error_action = SUSPEND
    use_libwrap = yes
    ##tcp_listen_port = 60
    tcp_listen_queue = 5
    tcp_max_per_addr = 1
    ##tcp_client_ports = 1024-65535
    tcp_client_max_idle = 0
    transport = TCP
    krb5_principal = auditd
    ##krb5_key_file = /etc/audit/audit.key
    distribute_network = no
    q_depth = 2000
    overflow_action = SYSLOG
    max_restarts = 10
    plugin_dir = /etc/audit/plugins.d
    end_of_event_timeout = 2
    """) % action


rhel(
    "rhel-auditd-keep-logs", "4.1.2.2",
    "Ensure audit logs are not automatically deleted: auditd must keep its logs when the maximum log file "
    "size is reached (max_log_file_action = keep_logs).",
    ["auditd//max_log_file_action"],
    "violating: max_log_file_action = ROTATE (the RHEL default); compliant: KEEP_LOGS in upper case "
    "(auditd reads it case-insensitively).",
    {"/etc/audit/auditd.conf": auditd_conf("ROTATE")},
    {"/etc/audit/auditd.conf": auditd_conf("KEEP_LOGS")},
    d("""
    - name: auditd log retention
      hosts: rhel9_servers
      gather_facts: false
      vars:
        auditd_conf: /etc/audit/auditd.conf
      tasks:
        - name: File metadata
          ansible.builtin.stat:
            path: "{{ auditd_conf }}"
            get_checksum: true
            checksum_algorithm: sha256
          register: auditd_stat

        - name: Read max_log_file_action
          ansible.builtin.command:
            argv: [awk, -F, '=', '/^[[:space:]]*max_log_file_action[[:space:]]*=/ {gsub(/[[:space:]]/, "", $2); print $2}', "{{ auditd_conf }}"]
          register: mlfa
          changed_when: false

        - name: Evaluate
          block:
            - name: keep_logs is configured
              ansible.builtin.assert:
                that:
                  - mlfa.stdout_lines | length > 0
                  - mlfa.stdout_lines[-1] | lower == 'keep_logs'
                quiet: true
            - ansible.builtin.set_fact:
                keep_logs: true
          rescue:
            - ansible.builtin.set_fact:
                keep_logs: false

        - name: Write evidence
          ansible.builtin.copy:
            dest: "{{ playbook_dir }}/collected_data.json"
            content: |
              {{ {
                   'file': auditd_conf,
                   'sha256': auditd_stat.stat.checksum | default(''),
                   'max_log_file_action': mlfa.stdout_lines,
                   'keep_logs': keep_logs
                 } | to_nice_json }}
          delegate_to: localhost
    """),
    d("""
    package check

    import rego.v1

    default result := false

    result if {
        input.keep_logs == true
        count(input.max_log_file_action) > 0
    }
    """),
)


# --------------------------------------------------------------------------------------------
# Kubernetes, class opa-static
# --------------------------------------------------------------------------------------------


def k8s(sid, cis, requirement, truth, notes, viol, comp, fetch, policy, title=None):
    meta = "id: %s\n" % sid
    meta += 'cis_id: "%s"\n' % cis
    meta += "platform: kubernetes\n"
    if title:
        meta += "title: %s\n" % yq(title)
    meta += "requirement: %s\n" % yq(requirement)
    meta += "classes: [opa-static]\n"
    meta += "violating_resources:\n" + "".join('  - "%s"\n' % t for t in truth)
    meta += "notes: %s\n" % yq(notes)
    files = {}
    for k, v in viol.items():
        files["violating/" + k] = v
    for k, v in comp.items():
        files["compliant/" + k] = v
    files["solution/fetch.sh"] = fetch
    files["solution/policy.rego"] = policy
    add(sid, meta, files)


# --------------------------------------------------------------------------------------------
# K1  cluster-admin only for system:masters (bash + python3 heredoc with PyYAML, List output)
# --------------------------------------------------------------------------------------------

K1_COMMON = d("""
    apiVersion: rbac.authorization.k8s.io/v1
    kind: ClusterRoleBinding
    metadata:
      name: cluster-admin
      labels:
        kubernetes.io/bootstrapping: rbac-defaults
      annotations:
        rbac.authorization.kubernetes.io/autoupdate: "true"
    roleRef:
      apiGroup: rbac.authorization.k8s.io
      kind: ClusterRole
      name: cluster-admin
    subjects:
      - apiGroup: rbac.authorization.k8s.io
        kind: Group
        name: system:masters
    ---
    apiVersion: rbac.authorization.k8s.io/v1
    kind: ClusterRoleBinding
    metadata:
      name: break-glass-admins
    roleRef:
      apiGroup: rbac.authorization.k8s.io
      kind: ClusterRole
      name: cluster-admin
    subjects:
      - apiGroup: rbac.authorization.k8s.io
        kind: Group
        name: system:masters
    ---
    apiVersion: rbac.authorization.k8s.io/v1
    kind: ClusterRoleBinding
    metadata:
      name: auditors-view
    roleRef:
      apiGroup: rbac.authorization.k8s.io
      kind: ClusterRole
      name: view
    subjects:
      - apiGroup: rbac.authorization.k8s.io
        kind: Group
        name: corp:auditors
    """)
K1_NS = d("""
    apiVersion: v1
    kind: Namespace
    metadata:
      name: ci
    ---
    apiVersion: v1
    kind: Namespace
    metadata:
      name: tools
    ---
    apiVersion: v1
    kind: ServiceAccount
    metadata:
      name: deployer
      namespace: ci
    """)


def k1_bindings(crb_role, rb_role):
    return d("""
    apiVersion: rbac.authorization.k8s.io/v1
    kind: ClusterRoleBinding
    metadata:
      name: ci-deployer-admin
      labels:
        team: platform
    roleRef:
      apiGroup: rbac.authorization.k8s.io
      kind: ClusterRole
      name: %s
    subjects:
      - kind: ServiceAccount
        name: deployer
        namespace: ci
    ---
    apiVersion: rbac.authorization.k8s.io/v1
    kind: RoleBinding
    metadata:
      name: tools-admin
      namespace: tools
    roleRef:
      apiGroup: rbac.authorization.k8s.io
      kind: ClusterRole
      name: %s
    subjects:
      - apiGroup: rbac.authorization.k8s.io
        kind: User
        name: jane@example.com
    """) % (crb_role, rb_role)


K1_CI_ROLE = d("""
    apiVersion: rbac.authorization.k8s.io/v1
    kind: ClusterRole
    metadata:
      name: ci-deployer
    rules:
      - apiGroups: ["apps"]
        resources: ["deployments", "statefulsets"]
        verbs: ["get", "list", "watch", "create", "update", "patch"]
      - apiGroups: [""]
        resources: ["services", "configmaps"]
        verbs: ["get", "list", "create", "update", "patch"]
    """)

k8s(
    "k8s-cluster-admin-bindings", "5.1.1",
    "Ensure that the cluster-admin role is only used where required: the cluster-admin ClusterRole may be "
    "bound only to the system:masters group. No other subject may get it through a ClusterRoleBinding or "
    "a RoleBinding.",
    ["ClusterRoleBinding//ci-deployer-admin", "RoleBinding/tools/tools-admin"],
    "violating: the CI ServiceAccount gets cluster-admin cluster-wide, and a RoleBinding in tools hands "
    "cluster-admin to a user (namespace-scoped, still the cluster-admin role). The default cluster-admin "
    "binding and a second binding to system:masters are allowed in both. compliant: ci-deployer-admin "
    "points to a narrow ClusterRole, tools-admin to the aggregated 'admin' role (near miss by name).",
    {"00-namespaces.yaml": K1_NS, "10-defaults.yaml": K1_COMMON, "20-bindings.yaml": k1_bindings("cluster-admin", "cluster-admin")},
    {"00-namespaces.yaml": K1_NS, "10-defaults.yaml": K1_COMMON, "15-ci-role.yaml": K1_CI_ROLE,
     "20-bindings.yaml": k1_bindings("ci-deployer", "admin")},
    d("""
    #!/bin/bash
    # Collect every RBAC binding from the static manifests into one kubectl-style List.
    set -euo pipefail
    cd "$(dirname "$0")"
    python3 - <<'PY'
    import glob, json
    import yaml

    items = []
    for path in sorted(glob.glob("static-resources/**/*.y*ml", recursive=True)):
        with open(path) as fh:
            for doc in yaml.safe_load_all(fh):
                if isinstance(doc, dict) and doc.get("kind") in ("ClusterRoleBinding", "RoleBinding"):
                    items.append(doc)

    with open("collected_data.json", "w") as out:
        json.dump({"apiVersion": "v1", "kind": "List", "items": items}, out, indent=2)
    PY
    """),
    d("""
    package check

    import rego.v1

    allowed_subject(s) if {
        s.kind == "Group"
        s.name == "system:masters"
    }

    violations contains sprintf("%s/%s/%s", [b.kind, object.get(b.metadata, "namespace", ""), b.metadata.name]) if {
        some b in input.items
        b.roleRef.kind == "ClusterRole"
        b.roleRef.name == "cluster-admin"
        some s in b.subjects
        not allowed_subject(s)
    }

    default result := false

    result if count(violations) == 0
    """),
)

# --------------------------------------------------------------------------------------------
# K2  wildcards in Roles / ClusterRoles (python3 one-liner)
# --------------------------------------------------------------------------------------------

K2_BOOT = d("""
    apiVersion: rbac.authorization.k8s.io/v1
    kind: ClusterRole
    metadata:
      name: cluster-admin
      labels:
        kubernetes.io/bootstrapping: rbac-defaults
      annotations:
        rbac.authorization.kubernetes.io/autoupdate: "true"
    rules:
    - apiGroups:
      - '*'
      resources:
      - '*'
      verbs:
      - '*'
    - nonResourceURLs:
      - '*'
      verbs:
      - '*'
    """)


def k2_roles(dev_verbs, crd_groups):
    return d("""
    apiVersion: v1
    kind: Namespace
    metadata: {name: dev}
    ---
    apiVersion: rbac.authorization.k8s.io/v1
    kind: Role
    metadata:
      name: dev-all
      namespace: dev
      annotations:
        description: "developers manage their own namespace; no '*' grants outside it"
    rules:
      - apiGroups: ["", "apps", "batch"]
        resources: ["pods", "pods/log", "deployments", "jobs", "configmaps"]
        verbs: %s
    ---
    apiVersion: rbac.authorization.k8s.io/v1
    kind: ClusterRole
    metadata:
      name: crd-operator
    rules:
    - apiGroups:
    %s
      resources:
      - customresourcedefinitions
      verbs:
      - get
      - list
      - watch
      - create
      - update
    ---
    apiVersion: rbac.authorization.k8s.io/v1
    kind: ClusterRole
    metadata:
      name: metrics-reader
    rules:
    - nonResourceURLs: ["/metrics"]
      verbs: ["get"]
    - apiGroups: ["metrics.k8s.io"]
      resources: ["pods", "nodes"]
      verbs: ["get", "list", "watch"]
    """) % (dev_verbs, crd_groups)


k8s(
    "k8s-rbac-wildcards", "5.1.3",
    "Minimize wildcard use in Roles and ClusterRoles: no rule of a Role or ClusterRole we define may use "
    "'*' in apiGroups, resources or verbs. The default ClusterRoles Kubernetes ships (label "
    "kubernetes.io/bootstrapping=rbac-defaults) are out of scope.",
    ["Role/dev/dev-all", "ClusterRole//crd-operator"],
    "violating: dev-all has verbs ['*'] (flow list), crd-operator has apiGroups '*' (block list, quoted); "
    "cluster-admin (bootstrapping label) is exempt in both; an annotation mentions '*'. compliant: "
    "explicit verbs and the apiextensions.k8s.io group.",
    {"bootstrap-roles.yaml": K2_BOOT, "team-roles.yaml": k2_roles('["*"]', "  - '*'")},
    {"bootstrap-roles.yaml": K2_BOOT,
     "team-roles.yaml": k2_roles('["get", "list", "watch", "create", "update", "patch", "delete"]',
                                 "  - apiextensions.k8s.io")},
    d("""
    #!/bin/sh
    python3 -c 'import glob,json,yaml; json.dump([d for f in sorted(glob.glob("static-resources/*.yaml")) for d in yaml.safe_load_all(open(f)) if d and d.get("kind") in ("Role","ClusterRole")], open("collected_data.json","w"))'
    """),
    d("""
    package check

    import rego.v1

    exempt(r) if r.metadata.labels["kubernetes.io/bootstrapping"] == "rbac-defaults"

    wildcard_rule(rule) if {
        some field in ["apiGroups", "resources", "verbs"]
        some v in object.get(rule, field, [])
        v == "*"
    }

    offenders contains r.metadata.name if {
        some r in input
        not exempt(r)
        some rule in r.rules
        wildcard_rule(rule)
    }

    default result := false

    result if count(offenders) == 0
    """),
)

# --------------------------------------------------------------------------------------------
# K3  privileged containers (find + python3 script shipping raw text; Rego parses with yaml.unmarshal)
# --------------------------------------------------------------------------------------------


def k3_media(priv):
    return d("""
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: transcoder
      namespace: media
      labels: {app: transcoder}
    spec:
      replicas: 2
      selector:
        matchLabels: {app: transcoder}
      template:
        metadata:
          labels: {app: transcoder}
        spec:
          initContainers:
            - name: load-codecs
              image: registry.example.com/media/codec-loader:2.3
              securityContext:
                privileged: %s
          containers:
            - name: ffmpeg
              image: registry.example.com/media/ffmpeg-worker:6.1
              # privileged: true was needed for the old GPU driver; not any more
              securityContext:
                privileged: false
                allowPrivilegeEscalation: false
              resources:
                limits: {cpu: "2", memory: 2Gi}
    ---
    apiVersion: v1
    kind: Service
    metadata:
      name: transcoder
      namespace: media
    spec:
      selector: {app: transcoder}
      ports:
        - port: 8080
    """) % priv


def k3_ops(sc):
    return d("""
    apiVersion: v1
    kind: Namespace
    metadata:
      name: ops
    ---
    apiVersion: v1
    kind: Pod
    metadata:
      name: node-debugger
      namespace: ops
    spec:
      nodeName: worker-3
      restartPolicy: Never
      containers:
      - name: shell
        image: docker.io/library/busybox:1.36
        command: ["sleep", "3600"]
        securityContext: %s
    """) % sc


K3_NS = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: media\n"
k8s(
    "k8s-privileged-containers", "5.2.2",
    "Minimize the admission of privileged containers: no container of any workload, init containers "
    "included, may run with securityContext.privileged set to true.",
    ["Deployment/media/transcoder", "Pod/ops/node-debugger"],
    "violating: the transcoder's init container is privileged (its main container is not, with a comment "
    "mentioning 'privileged: true'); node-debugger sets privileged in a flow mapping. compliant: both "
    "false.",
    {"media-ns.yaml": K3_NS, "media.yaml": k3_media("true"),
     "ops-debug.yaml": k3_ops("{privileged: true, runAsUser: 0}")},
    {"media-ns.yaml": K3_NS, "media.yaml": k3_media("false"),
     "ops-debug.yaml": k3_ops("{privileged: false, allowPrivilegeEscalation: false, runAsUser: 0}")},
    d("""
    #!/usr/bin/env bash
    # Ship the raw manifests to OPA; the policy parses them (yaml.unmarshal).
    set -e
    find static-resources -type f \\( -name '*.yaml' -o -name '*.yml' \\) -print0 | sort -z \\
      | python3 -c '
    import json, sys
    paths = [p for p in sys.stdin.buffer.read().decode().split("\\0") if p]
    docs = []
    for p in paths:
        with open(p, encoding="utf-8") as fh:
            docs.append({"file": p, "content": fh.read()})
    json.dump({"manifests": docs}, sys.stdout)
    ' > collected_data.json
    """),
    d("""
    package check

    import rego.v1

    objects contains obj if {
        some m in input.manifests
        some part in regex.split(`(?m)^---[ \\t]*$`, m.content)
        trim_space(part) != ""
        obj := yaml.unmarshal(part)
        is_object(obj)
    }

    pod_spec(obj) := obj.spec if obj.kind == "Pod"

    pod_spec(obj) := obj.spec.jobTemplate.spec.template.spec if obj.kind == "CronJob"

    pod_spec(obj) := obj.spec.template.spec if {
        obj.kind in {"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "ReplicationController"}
    }

    privileged_objects contains sprintf("%s/%s/%s", [obj.kind, obj.metadata.namespace, obj.metadata.name]) if {
        some obj in objects
        spec := pod_spec(obj)
        some field in ["containers", "initContainers", "ephemeralContainers"]
        some c in object.get(spec, field, [])
        c.securityContext.privileged == true
    }

    default result := false

    result if count(privileged_objects) == 0
    """),
)

# --------------------------------------------------------------------------------------------
# K4  hostPID (awk only, no python)
# --------------------------------------------------------------------------------------------


def k4_ds(hostpid_line):
    return d("""
    apiVersion: apps/v1
    kind: DaemonSet
    metadata:
      name: node-exporter
      namespace: monitoring
      labels:
        app.kubernetes.io/name: node-exporter
    spec:
      selector:
        matchLabels:
          app.kubernetes.io/name: node-exporter
      template:
        metadata:
          name: node-exporter
          labels:
            app.kubernetes.io/name: node-exporter
        spec:
          hostNetwork: true
    %s
          containers:
            - name: node-exporter
              image: quay.io/prometheus/node-exporter:v1.8.2
              args: ["--path.rootfs=/host"]
              volumeMounts:
                - name: root
                  mountPath: /host
                  readOnly: true
          volumes:
            - name: root
              hostPath:
                path: /
    ---
    apiVersion: apps/v1
    kind: DaemonSet
    metadata:
      name: fluent-bit
      namespace: logging
    spec:
      selector:
        matchLabels: {app: fluent-bit}
      template:
        metadata:
          labels: {app: fluent-bit}
        spec:
          hostIPC: false
          containers:
            - name: fluent-bit
              image: cr.fluentbit.io/fluent/fluent-bit:3.1
    """) % hostpid_line


def k4_pod(hostpid):
    return d("""
    apiVersion: v1
    kind: Pod
    metadata:
      name: pid-debug
      namespace: sre
      annotations:
        owner: "oncall"
    spec:
      hostPID: %s
      containers:
        - name: tools
          image: registry.example.com/sre/netshoot:0.13
          command: ["sleep", "infinity"]
    """) % hostpid


K4_NS = d("""
    apiVersion: v1
    kind: Namespace
    metadata:
      name: monitoring
    ---
    apiVersion: v1
    kind: Namespace
    metadata:
      name: logging
    ---
    apiVersion: v1
    kind: Namespace
    metadata:
      name: sre
    """)
k8s(
    "k8s-host-pid", "5.2.3",
    "Minimize the admission of containers wishing to share the host process ID namespace: nothing may set "
    "hostPID: true.",
    ["DaemonSet/monitoring/node-exporter", "Pod/sre/pid-debug"],
    "violating: node-exporter (a DaemonSet that often asks for hostPID) and a debug Pod. compliant: "
    "node-exporter keeps hostNetwork: true and has '# hostPID: true' commented out; the Pod says "
    "hostPID: false. fluent-bit has hostIPC: false in both.",
    {"namespaces.yaml": K4_NS, "daemonsets.yaml": k4_ds("      hostPID: true"), "debug-pod.yaml": k4_pod("true")},
    {"namespaces.yaml": K4_NS, "daemonsets.yaml": k4_ds("      # hostPID: true   # removed, CIS 5.2.3"),
     "debug-pod.yaml": k4_pod("false")},
    d("""
    #!/bin/bash
    # hostPID inventory: one record per YAML document (kind, namespace, name, hostPID)
    awk '
    function flush() {
        if (kind != "") {
            printf "%s{\\"kind\\":\\"%s\\",\\"namespace\\":\\"%s\\",\\"name\\":\\"%s\\",\\"hostPID\\":%s}", sep, kind, ns, name, (hostpid == "true" ? "true" : "false")
            sep = ","
        }
        kind = ""; ns = ""; name = ""; hostpid = ""; inmeta = 0
    }
    BEGIN { printf "{\\"objects\\":["; sep = "" }
    FNR == 1 { flush() }
    /^---/ { flush(); next }
    /^[[:space:]]*#/ { next }
    /^kind:/ { kind = $2; next }
    /^metadata:/ { inmeta = 1; next }
    /^[^[:space:]]/ { inmeta = 0 }
    inmeta && /^  name:/ { name = $2 }
    inmeta && /^  namespace:/ { ns = $2 }
    /^[[:space:]]+hostPID:/ { hostpid = $2 }
    END { flush(); print "]}" }
    ' static-resources/*.yaml > collected_data.json
    """),
    d("""
    package check

    import rego.v1

    default result := false

    result if {
        count(input.objects) > 0
        every o in input.objects {
            o.hostPID == false
        }
    }
    """),
)

# --------------------------------------------------------------------------------------------
# K5  root containers (longer python3 script: effective securityContext per container)
# --------------------------------------------------------------------------------------------


def k5_shop(cart_container_sc):
    return d("""
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: cart
      namespace: shop
    spec:
      replicas: 3
      selector:
        matchLabels: {app: cart}
      template:
        metadata:
          labels: {app: cart}
        spec:
          securityContext:
            runAsNonRoot: true
            fsGroup: 2000
          containers:
            - name: cart
              image: registry.example.com/shop/cart:4.2.0
    %s
              ports:
                - containerPort: 8080
    ---
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: web
      namespace: shop
    spec:
      selector:
        matchLabels: {app: web}
      template:
        metadata:
          labels: {app: web}
        spec:
          securityContext:
            runAsUser: 0
          containers:
            - name: nginx
              image: registry.example.com/shop/nginx-unprivileged:1.27
              securityContext:
                runAsUser: 101
                runAsGroup: 101
    """) % cart_container_sc


def k5_data(redis_sc):
    return d("""
    apiVersion: apps/v1
    kind: StatefulSet
    metadata:
      name: redis
      namespace: data
    spec:
      serviceName: redis
      replicas: 1
      selector:
        matchLabels: {app: redis}
      template:
        metadata:
          labels: {app: redis}
        spec:
          initContainers:
            - name: sysctl
              image: docker.io/library/busybox:1.36
              command: ["sh", "-c", "echo ok"]
              securityContext:
                runAsUser: 65534
          containers:
            - name: redis
              image: docker.io/library/redis:7.4
    %s
    ---
    apiVersion: batch/v1
    kind: CronJob
    metadata:
      name: backup
      namespace: data
    spec:
      schedule: "15 2 * * *"
      jobTemplate:
        spec:
          template:
            spec:
              restartPolicy: OnFailure
              securityContext:
                runAsNonRoot: true
                runAsUser: 1000
              containers:
                - name: dump
                  image: registry.example.com/data/redis-backup:1.0
    """) % redis_sc


K5_NS = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: data\n"
k8s(
    "k8s-root-containers", "5.2.7",
    "Minimize the admission of root containers: every container (init containers too) must be guaranteed "
    "to run as a non-root user, that is its effective runAsUser (the container's value, else the pod's) "
    "is a non-zero UID, or its effective runAsNonRoot is true and its effective runAsUser is not 0.",
    ["Deployment/shop/cart", "StatefulSet/data/redis"],
    "violating: cart inherits runAsNonRoot: true from the pod but its container overrides it with false; "
    "the redis container sets nothing (its init container runs as 65534). compliant: cart without the "
    "override; redis with a container runAsUser 999 only. web has pod runAsUser 0 overridden by the "
    "container's 101 (compliant in both); the backup CronJob is compliant at pod level.",
    {"namespaces.yaml": K5_NS,
     "shop.yaml": k5_shop("          securityContext:\n            runAsNonRoot: false"),
     "data.yaml": k5_data("          resources: {}")},
    {"namespaces.yaml": K5_NS,
     "shop.yaml": k5_shop("          securityContext:\n            allowPrivilegeEscalation: false"),
     "data.yaml": k5_data("          securityContext:\n            runAsUser: 999")},
    d("""
    #!/usr/bin/env python3
    \"\"\"Collect the effective user settings of every container in static-resources/.\"\"\"
    import glob
    import json
    import os

    import yaml

    WORKLOADS = {"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "ReplicationController"}


    def pod_spec(obj):
        kind = obj.get("kind")
        spec = obj.get("spec") or {}
        if kind == "Pod":
            return spec
        if kind == "CronJob":
            return (((spec.get("jobTemplate") or {}).get("spec") or {}).get("template") or {}).get("spec")
        if kind in WORKLOADS:
            return (spec.get("template") or {}).get("spec")
        return None


    def main():
        records = []
        files = sorted(glob.glob(os.path.join("static-resources", "**", "*.yaml"), recursive=True))
        for path in files:
            with open(path) as fh:
                for obj in yaml.safe_load_all(fh):
                    if not isinstance(obj, dict):
                        continue
                    spec = pod_spec(obj)
                    if spec is None:
                        continue
                    pod_sc = spec.get("securityContext") or {}
                    meta = obj.get("metadata") or {}
                    for field in ("initContainers", "containers", "ephemeralContainers"):
                        for c in spec.get(field) or []:
                            sc = c.get("securityContext") or {}
                            records.append({
                                "resource": "%s/%s/%s" % (obj["kind"], meta.get("namespace", "default"), meta.get("name")),
                                "container": c.get("name"),
                                "type": field,
                                "runAsNonRoot": sc.get("runAsNonRoot", pod_sc.get("runAsNonRoot")),
                                "runAsUser": sc.get("runAsUser", pod_sc.get("runAsUser")),
                            })
        with open("collected_data.json", "w") as out:
            json.dump({"containers": records}, out, indent=1, sort_keys=True)


    if __name__ == "__main__":
        main()
    """),
    d("""
    package check

    import rego.v1

    nonzero_uid(c) if {
        c.runAsUser != null
        c.runAsUser != 0
    }

    non_root(c) if nonzero_uid(c)

    non_root(c) if {
        c.runAsNonRoot == true
        c.runAsUser != 0
    }

    root_capable contains sprintf("%s:%s", [c.resource, c.container]) if {
        some c in input.containers
        not non_root(c)
    }

    default result := false

    result if count(root_capable) == 0
    """),
)

# --------------------------------------------------------------------------------------------
# K6  Secrets as environment variables (bash loop, python3 json.dumps per file, Rego yaml.unmarshal)
# --------------------------------------------------------------------------------------------


def k6_billing(invoicer_env, migrate_env):
    return d("""
    apiVersion: v1
    kind: Secret
    metadata:
      name: invoicer-db
      namespace: billing
    type: Opaque
    stringData:
      DB_PASSWORD: not-a-real-password
    ---
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: invoicer-config
      namespace: billing
    data:
      LOG_LEVEL: info
      DB_HOST: postgres.billing.svc
    ---
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: invoicer
      namespace: billing
    spec:
      selector:
        matchLabels: {app: invoicer}
      template:
        metadata:
          labels: {app: invoicer}
        spec:
          containers:
            - name: invoicer
              image: registry.example.com/billing/invoicer:3.0.1
              envFrom:
                - configMapRef:
                    name: invoicer-config
    %s
              volumeMounts:
                - name: db
                  mountPath: /var/run/secrets/db
                  readOnly: true
          volumes:
            - name: db
              secret:
                secretName: invoicer-db
    ---
    apiVersion: batch/v1
    kind: Job
    metadata:
      name: db-migrate
      namespace: billing
    spec:
      backoffLimit: 1
      template:
        spec:
          restartPolicy: Never
          initContainers:
            - name: wait-for-db
              image: docker.io/library/postgres:16
              command: ["sh", "-c", "until pg_isready -h $DB_HOST; do sleep 2; done"]
              env:
                - name: DB_HOST
                  valueFrom:
                    configMapKeyRef:
                      name: invoicer-config
                      key: DB_HOST
    %s
          containers:
            - name: migrate
              image: registry.example.com/billing/migrate:3.0.1
              args: ["--password-file", "/db/DB_PASSWORD"]
              volumeMounts:
                - {name: db, mountPath: /db, readOnly: true}
          volumes:
            - name: db
              secret: {secretName: invoicer-db}
    """) % (invoicer_env, migrate_env)


K6_NS = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: billing\n"
k8s(
    "k8s-secrets-in-env", "5.4.1",
    "Prefer using Secrets as files over Secrets as environment variables: no container may read a Secret "
    "through env[].valueFrom.secretKeyRef or envFrom[].secretRef; mount Secrets as volumes instead.",
    ["Deployment/billing/invoicer", "Job/billing/db-migrate"],
    "violating: invoicer has an extra envFrom secretRef next to a configMapRef; db-migrate's init "
    "container reads DB_PASSWORD through secretKeyRef next to a configMapKeyRef. compliant: those entries "
    "are gone, Secrets stay mounted as volumes; the Secret object itself is in both.",
    {"namespace.yaml": K6_NS,
     "billing.yaml": k6_billing("            - secretRef:\n                name: invoicer-db",
                                "            - name: PGPASSWORD\n              valueFrom:\n                secretKeyRef:\n                  name: invoicer-db\n                  key: DB_PASSWORD")},
    {"namespace.yaml": K6_NS,
     "billing.yaml": k6_billing("            - prefix: APP_\n              configMapRef:\n                name: invoicer-config",
                                "            - name: PGCONNECT_TIMEOUT\n              value: \"5\"")},
    d("""
    #!/bin/bash
    # Bundle every manifest file (raw text) into collected_data.json.
    out=collected_data.json
    printf '{"files":[' > "$out"
    first=1
    for f in static-resources/*.yaml static-resources/*.yml; do
      [ -f "$f" ] || continue
      if [ "$first" -eq 0 ]; then printf ',' >> "$out"; fi
      first=0
      printf '{"name":"%s","text":' "$(basename "$f")" >> "$out"
      python3 -c 'import json,sys; sys.stdout.write(json.dumps(open(sys.argv[1]).read()))' "$f" >> "$out"
      printf '}' >> "$out"
    done
    printf ']}\\n' >> "$out"
    """),
    d("""
    package check

    import rego.v1

    docs contains doc if {
        some f in input.files
        some chunk in split(f.text, "\\n---")
        trim_space(chunk) != ""
        doc := yaml.unmarshal(chunk)
        is_object(doc)
    }

    spec_of(doc) := doc.spec if doc.kind == "Pod"

    spec_of(doc) := doc.spec.template.spec if doc.kind in {"Deployment", "StatefulSet", "DaemonSet", "Job", "ReplicaSet"}

    spec_of(doc) := doc.spec.jobTemplate.spec.template.spec if doc.kind == "CronJob"

    containers(spec) := array.concat(object.get(spec, "initContainers", []), object.get(spec, "containers", []))

    uses_secret_env(c) if {
        some e in c.env
        e.valueFrom.secretKeyRef
    }

    uses_secret_env(c) if {
        some e in c.envFrom
        e.secretRef
    }

    offenders contains concat("/", [doc.kind, doc.metadata.namespace, doc.metadata.name]) if {
        some doc in docs
        some c in containers(spec_of(doc))
        uses_secret_env(c)
    }

    default result := false

    result if {
        count(docs) > 0
        count(offenders) == 0
    }
    """),
)

# --------------------------------------------------------------------------------------------
# K7  default namespace (awk metadata extraction)
# --------------------------------------------------------------------------------------------


def k7_hello(ns):
    return d("""
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: hello-config
      namespace: %(ns)s
    data:
      GREETING: "hello from the default namespace? no."
    ---
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: hello-web
      namespace: %(ns)s
      labels:
        app: hello-web
    spec:
      replicas: 1
      selector:
        matchLabels:
          app: hello-web
      template:
        metadata:
          labels:
            app: hello-web
        spec:
          containers:
            - name: web
              image: registry.example.com/demo/hello:1.0
              envFrom:
                - configMapRef:
                    name: hello-config
    """) % {"ns": ns}


K7_SYSTEM = d("""
    apiVersion: v1
    kind: Service
    metadata:
      name: kubernetes
      namespace: default
      labels:
        component: apiserver
        provider: kubernetes
    spec:
      type: ClusterIP
      clusterIP: 10.96.0.1
      ports:
        - name: https
          port: 443
          protocol: TCP
          targetPort: 6443
    ---
    apiVersion: v1
    kind: ServiceAccount
    metadata:
      name: default
      namespace: default
    ---
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: kube-root-ca.crt
      namespace: default
    data:
      ca.crt: |
        -----BEGIN CERTIFICATE-----
        MIIBdzCCAR2gAwIBAgIBADAKBggqhkjOPQQDAjAjMSEwHwYDVQQDDBhrM3Mtc2Vy
        -----END CERTIFICATE-----
    """)
K7_LEGACY = d("""
    apiVersion: v1
    kind: Namespace
    metadata:
      name: default-apps
    ---
    apiVersion: v1
    kind: Namespace
    metadata:
      name: hello
    ---
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: legacy-api
      namespace: default-apps
    spec:
      selector:
        matchLabels:
          app: legacy-api
      template:
        metadata:
          labels:
            app: legacy-api
          namespace: default
        spec:
          containers:
            - name: api
              image: registry.example.com/legacy/api:0.9
    """)
k8s(
    "k8s-default-namespace", "5.7.4",
    "The default namespace should not be used: nothing of ours may live in namespace default. Only what "
    "Kubernetes itself creates there is allowed: the kubernetes Service, the default ServiceAccount and "
    "the kube-root-ca.crt ConfigMap.",
    ["ConfigMap/default/hello-config", "Deployment/default/hello-web"],
    "violating: a demo ConfigMap and Deployment in default next to the three built-in objects. compliant: "
    "both moved to namespace hello. Near misses in both: namespace default-apps, and a pod template "
    "whose metadata says namespace: default (ignored by Kubernetes).",
    {"00-system-defaults.yaml": K7_SYSTEM, "10-namespaces-legacy.yaml": K7_LEGACY, "20-hello.yaml": k7_hello("default")},
    {"00-system-defaults.yaml": K7_SYSTEM, "10-namespaces-legacy.yaml": K7_LEGACY, "20-hello.yaml": k7_hello("hello")},
    d("""
    #!/usr/bin/env bash
    # kind / namespace / name of every top-level object
    cd "$(dirname "$0")" || exit 1
    {
      echo '['
      awk '
        FNR == 1 || /^---/ { if (kind != "") emit(); kind = ""; name = ""; ns = ""; meta = 0 }
        /^kind:/            { kind = $2 }
        /^metadata:/        { meta = 1; next }
        /^[^ #]/            { meta = 0 }
        meta && /^  name:/      { name = $2 }
        meta && /^  namespace:/ { ns = $2 }
        END { if (kind != "") emit() }
        function emit() {
          gsub(/"/, "", name); gsub(/"/, "", ns)
          printf "%s  {\\"kind\\": \\"%s\\", \\"namespace\\": \\"%s\\", \\"name\\": \\"%s\\"}\\n", (n++ ? "," : " "), kind, ns, name
        }
      ' $(find static-resources -name '*.yaml' | sort)
      echo ']'
    } > collected_data.json
    """),
    d("""
    package check

    import rego.v1

    builtin := {
        "Service/kubernetes",
        "ServiceAccount/default",
        "ConfigMap/kube-root-ca.crt",
    }

    in_default contains sprintf("%s/%s", [o.kind, o.name]) if {
        some o in input
        o.namespace == "default"
    }

    default result := false

    result if count(in_default - builtin) == 0
    """),
)

# --------------------------------------------------------------------------------------------
# K8  added capabilities (python3 heredoc walking every pod template generically)
# --------------------------------------------------------------------------------------------


def k8_ops(probe_caps):
    return d("""
    apiVersion: batch/v1
    kind: CronJob
    metadata:
      name: net-probe
      namespace: ops
    spec:
      schedule: "*/5 * * * *"
      concurrencyPolicy: Forbid
      jobTemplate:
        spec:
          template:
            spec:
              restartPolicy: Never
              containers:
                - name: probe
                  image: registry.example.com/ops/probe:2.2
                  args: ["--icmp", "10.0.0.1"]
                  securityContext:
                    capabilities:
    %s
    ---
    apiVersion: v1
    kind: Pod
    metadata:
      name: toolbox
      namespace: ops
    spec:
      containers:
        - name: toolbox
          image: registry.example.com/ops/toolbox:1.4
          securityContext:
            capabilities: {drop: [ALL]}
    """) % probe_caps


def k8_edge(init_caps):
    return d("""
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: envoy
      namespace: edge
    spec:
      replicas: 2
      selector:
        matchLabels: {app: envoy}
      template:
        metadata:
          labels: {app: envoy}
          annotations:
            note: "capabilities.add is reviewed by the platform team"
        spec:
          initContainers:
            - name: iptables-init
              image: registry.example.com/edge/proxy-init:1.20
              securityContext:
                capabilities:
    %s
          containers:
            - name: envoy
              image: docker.io/envoyproxy/envoy:v1.31.0
              securityContext:
                capabilities:
                  add: []
                  drop: ["ALL"]
    """) % init_caps


K8_NS = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ops\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: edge\n"
k8s(
    "k8s-added-capabilities", "5.2.9",
    "Minimize the admission of containers with added capabilities: no container (init containers and "
    "CronJob templates included) may list any capability under securityContext.capabilities.add.",
    ["CronJob/ops/net-probe", "Deployment/edge/envoy"],
    "violating: the CronJob's probe adds NET_RAW; envoy's init container adds NET_ADMIN and NET_RAW while "
    "its main container has add: [] (empty, fine). compliant: both only drop ALL. An annotation mentions "
    "capabilities.add.",
    {"namespaces.yaml": K8_NS,
     "ops.yaml": k8_ops("                  add: [NET_RAW]\n                  drop: [ALL]"),
     "edge.yaml": k8_edge("              add:\n              - NET_ADMIN\n              - NET_RAW")},
    {"namespaces.yaml": K8_NS,
     "ops.yaml": k8_ops("                  drop: [ALL]"),
     "edge.yaml": k8_edge("              drop:\n              - ALL")},
    d("""
    #!/bin/bash
    python3 <<'EOF'
    import json, pathlib
    import yaml

    found = []

    def walk(node, owner):
        # any list of containers anywhere under the object (pod specs, job templates, cronjob templates)
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("containers", "initContainers", "ephemeralContainers") and isinstance(value, list):
                    for c in value:
                        caps = ((c or {}).get("securityContext") or {}).get("capabilities") or {}
                        found.append({"owner": owner, "container": c.get("name"), "add": caps.get("add") or []})
                else:
                    walk(value, owner)
        elif isinstance(node, list):
            for item in node:
                walk(item, owner)

    for f in sorted(pathlib.Path("static-resources").rglob("*.yaml")):
        for doc in yaml.safe_load_all(f.read_text()):
            if isinstance(doc, dict) and "kind" in doc:
                m = doc.get("metadata", {})
                walk(doc.get("spec"), "%s/%s/%s" % (doc["kind"], m.get("namespace", ""), m.get("name", "")))

    pathlib.Path("collected_data.json").write_text(json.dumps({"containers": found}, indent=2))
    EOF
    """),
    d("""
    package check

    import rego.v1

    default result := false

    result if {
        every c in input.containers {
            count(c.add) == 0
        }
    }
    """),
)

# --------------------------------------------------------------------------------------------
# K9  service account token automount (several files merged into one stream, python3 + yaml)
# --------------------------------------------------------------------------------------------


def k9_sas(frontend_extra):
    return d("""
    apiVersion: v1
    kind: Namespace
    metadata:
      name: apps
    ---
    apiVersion: v1
    kind: ServiceAccount
    metadata:
      name: default
      namespace: apps
    automountServiceAccountToken: false
    ---
    apiVersion: v1
    kind: ServiceAccount
    metadata:
      name: frontend
      namespace: apps
    %s---
    apiVersion: v1
    kind: ServiceAccount
    metadata:
      name: api
      namespace: apps
    automountServiceAccountToken: false
    ---
    apiVersion: v1
    kind: ServiceAccount
    metadata:
      name: worker
      namespace: apps
    automountServiceAccountToken: false
    """) % frontend_extra


def k9_workloads(api_pod_line):
    return d("""
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: frontend
      namespace: apps
    spec:
      selector:
        matchLabels: {app: frontend}
      template:
        metadata:
          labels: {app: frontend}
        spec:
          serviceAccountName: frontend
          containers:
            - name: web
              image: registry.example.com/apps/frontend:5.1
    ---
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: api
      namespace: apps
    spec:
      selector:
        matchLabels: {app: api}
      template:
        metadata:
          labels: {app: api}
        spec:
          serviceAccountName: api
    %s
          containers:
            - name: api
              image: registry.example.com/apps/api:5.1
    """) % api_pod_line


K9_WORKER = d("""
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: worker
      namespace: apps
    spec:
      selector:
        matchLabels: {app: worker}
      template:
        metadata:
          labels: {app: worker}
        spec:
          serviceAccountName: worker
          containers:
            - name: worker
              image: registry.example.com/apps/worker:5.1
    ---
    apiVersion: batch/v1
    kind: Job
    metadata:
      name: seed
      namespace: apps
    spec:
      template:
        spec:
          restartPolicy: Never
          containers:
            - name: seed
              image: registry.example.com/apps/seed:5.1
    """)
k8s(
    "k8s-sa-token-automount", "5.1.6",
    "Ensure that Service Account Tokens are only mounted where necessary: no workload in namespace apps "
    "may end up with an automatically mounted service account token. automountServiceAccountToken on the "
    "pod spec wins; when the pod does not set it, the ServiceAccount's setting applies (serviceAccountName, "
    "else the default ServiceAccount); when neither sets false, Kubernetes mounts the token.",
    ["Deployment/apps/frontend", "Deployment/apps/api"],
    "violating: frontend uses a ServiceAccount that does not set automountServiceAccountToken (default "
    "true); api's pod sets true explicitly although its ServiceAccount says false. worker (SA false) and "
    "the seed Job (default SA, which says false) are compliant in both. compliant: the frontend SA says "
    "false, api's pod says false. ServiceAccounts and workloads are in different files.",
    {"serviceaccounts.yaml": k9_sas(""), "workloads.yaml": k9_workloads("      automountServiceAccountToken: true"),
     "workloads-batch.yaml": K9_WORKER},
    {"serviceaccounts.yaml": k9_sas("automountServiceAccountToken: false\n"),
     "workloads.yaml": k9_workloads("      automountServiceAccountToken: false"),
     "workloads-batch.yaml": K9_WORKER},
    d("""
    #!/bin/sh
    # merge all manifests into a single multi-document stream, then convert it to JSON
    tmp=$(mktemp)
    for f in $(ls static-resources/*.yaml | sort); do
      cat "$f"
      printf '\\n---\\n'
    done > "$tmp"
    python3 -c '
    import json, sys, yaml
    docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
    sas = [d for d in docs if d["kind"] == "ServiceAccount"]
    workloads = [d for d in docs if d["kind"] in ("Pod", "Deployment", "StatefulSet", "DaemonSet", "Job", "CronJob")]
    json.dump({"serviceaccounts": sas, "workloads": workloads}, open("collected_data.json", "w"))
    ' "$tmp"
    rc=$?
    rm -f "$tmp"
    exit $rc
    """),
    d("""
    package check

    import rego.v1

    pod_spec(w) := w.spec if w.kind == "Pod"

    pod_spec(w) := w.spec.jobTemplate.spec.template.spec if w.kind == "CronJob"

    pod_spec(w) := w.spec.template.spec if not w.kind in {"Pod", "CronJob"}

    sa_name(spec) := object.get(spec, "serviceAccountName", "default")

    sa_automount(ns, name) := v if {
        some sa in input.serviceaccounts
        sa.metadata.namespace == ns
        sa.metadata.name == name
        v := object.get(sa, "automountServiceAccountToken", true)
    } else := true

    mounts_token(w) if {
        spec := pod_spec(w)
        spec.automountServiceAccountToken == true
    }

    mounts_token(w) if {
        spec := pod_spec(w)
        not "automountServiceAccountToken" in object.keys(spec)
        sa_automount(w.metadata.namespace, sa_name(spec)) == true
    }

    offenders contains w.metadata.name if {
        some w in input.workloads
        w.metadata.namespace == "apps"
        mounts_token(w)
    }

    default result := false

    result if count(offenders) == 0
    """),
)

# --------------------------------------------------------------------------------------------
# K10  a NetworkPolicy in every namespace (pure bash: while-read loop, case patterns)
# --------------------------------------------------------------------------------------------

K10_NS = d("""
    apiVersion: v1
    kind: Namespace
    metadata:
      name: payments
      labels:
        team: payments
    ---
    apiVersion: v1
    kind: Namespace
    metadata:
      name: payments-staging
    ---
    apiVersion: v1
    kind: Namespace
    metadata:
      name: reporting
    ---
    apiVersion: v1
    kind: Namespace
    metadata:
      name: kube-system
    """)
K10_NP = d("""
    apiVersion: networking.k8s.io/v1
    kind: NetworkPolicy
    metadata:
      name: payments-allow-from-gateway
      namespace: reporting
    spec:
      podSelector: {}
      ingress:
        - from:
            - namespaceSelector:
                matchLabels:
                  kubernetes.io/metadata.name: gateway
      policyTypes: [Ingress]
    ---
    apiVersion: networking.k8s.io/v1
    kind: NetworkPolicy
    metadata:
      name: default-deny
      namespace: payments-staging
    spec:
      podSelector: {}
      policyTypes: [Ingress, Egress]
    """)
K10_FIX = d("""
    apiVersion: networking.k8s.io/v1
    kind: NetworkPolicy
    metadata:
      namespace: payments
      name: default-deny-ingress
    spec:
      podSelector: {}
      policyTypes:
        - Ingress
    """)
K10_APP = d("""
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: ledger
      namespace: payments
    spec:
      selector:
        matchLabels: {app: ledger}
      template:
        metadata:
          labels: {app: ledger}
        spec:
          containers:
            - name: ledger
              image: registry.example.com/payments/ledger:7.0
    """)
k8s(
    "k8s-namespace-networkpolicy", "5.3.2",
    "Ensure that all Namespaces have NetworkPolicies defined: every Namespace declared in these manifests, "
    "except kube-system, kube-public, kube-node-lease and default, must contain at least one "
    "NetworkPolicy.",
    ["Namespace//payments"],
    "violating: payments has a Deployment but no NetworkPolicy; a policy named payments-allow-from-gateway "
    "lives in reporting, payments-staging has its own default-deny, kube-system is exempt. compliant: "
    "default-deny-ingress in payments (namespace written before name).",
    {"namespaces.yaml": K10_NS, "networkpolicies.yaml": K10_NP, "payments-app.yaml": K10_APP},
    {"namespaces.yaml": K10_NS, "networkpolicies.yaml": K10_NP, "payments-app.yaml": K10_APP,
     "payments-netpol.yaml": K10_FIX},
    d("""
    #!/bin/bash
    # Which declared namespaces have a NetworkPolicy? Pure bash, no jq/yq.
    declare -a namespaces=() policy_ns=()
    kind="" name="" ns="" inmeta=0

    flush() {
      case "$kind" in
        Namespace) [ -n "$name" ] && namespaces+=("$name") ;;
        NetworkPolicy) policy_ns+=("${ns:-default}") ;;
      esac
      kind="" name="" ns="" inmeta=0
    }

    strip() { local v="${1#*:}"; v="${v//[[:space:]\\"\\']/}"; printf '%s' "$v"; }

    for f in static-resources/*.yaml static-resources/*.yml; do
      [ -e "$f" ] || continue
      while IFS= read -r line || [ -n "$line" ]; do
        case "$line" in
          ---*) flush ;;
          kind:*) kind=$(strip "$line") ;;
          metadata:*) inmeta=1 ;;
          "  name:"*) if [ "$inmeta" = 1 ]; then name=$(strip "$line"); fi ;;
          "  namespace:"*) if [ "$inmeta" = 1 ]; then ns=$(strip "$line"); fi ;;
          [a-zA-Z]*) inmeta=0 ;;
        esac
      done < "$f"
      flush
    done

    join() { local IFS=,; local out=() x; for x in "$@"; do out+=("\\"$x\\""); done; printf '%s' "${out[*]}"; }

    printf '{"namespaces":[%s],"networkpolicy_namespaces":[%s]}\\n' \\
      "$(join "${namespaces[@]}")" "$(join "${policy_ns[@]}")" > collected_data.json
    """),
    d("""
    package check

    import rego.v1

    exempt := {"kube-system", "kube-public", "kube-node-lease", "default"}

    covered := {ns | some ns in input.networkpolicy_namespaces}

    uncovered contains ns if {
        some ns in input.namespaces
        not ns in exempt
        not ns in covered
    }

    default result := false

    result if {
        count(input.namespaces) > 0
        count(uncovered) == 0
    }
    """),
)


# --------------------------------------------------------------------------------------------
# writer
# --------------------------------------------------------------------------------------------


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen.py OUT")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    seen = set()
    for sid, meta, files in SCEN:
        assert sid not in seen, sid
        seen.add(sid)
        base = os.path.join(out, sid)
        os.makedirs(base, exist_ok=True)
        with open(os.path.join(base, "scenario.yaml"), "w", newline="\n") as fh:
            fh.write(meta)
        for rel in sorted(files):
            path = os.path.join(base, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", newline="\n") as fh:
                fh.write(files[rel])
            if rel.endswith(".sh"):
                os.chmod(path, 0o755)
            else:
                os.chmod(path, 0o644)
    print("%d scenarios written to %s" % (len(SCEN), out))


if __name__ == "__main__":
    main()
