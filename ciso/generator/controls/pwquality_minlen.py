"""CIS RHEL 9 5.4.1: new passwords are at least 14 characters long."""

from ciso.generator.pwquality import PwqualityControl

CONTROL = PwqualityControl(
    cis_id="5.4.1",
    builtin_id="cis-rhel9-5.4.1-pwquality-minlen",
    minimum=14,
    phrasings=(
        "Passwords shorter than 14 characters must be refused: /etc/pam.d/system-auth and "
        "/etc/pam.d/password-auth must each call pam_pwquality.so, and the minlen it applies "
        "(the pwquality.conf.d/*.conf drop-ins first, then /etc/security/pwquality.conf, last "
        "value winning, names in any case; a minlen= argument on the module line wins over the "
        "files) must be 14 or more. Unset is a finding.",
        "Finding criteria: the host fails when either PAM stack (system-auth, password-auth) "
        "has no active pam_pwquality.so password line, or when the effective minlen of its "
        "call is unset or below 14. Comments and files libpwquality does not read are not "
        "evidence.",
        "Long passwords resist guessing. Ensure password creation requirements set a minimum "
        "length of at least 14 (minlen, as pam_pwquality applies it from its arguments and "
        "libpwquality's configuration) in both system-auth and password-auth.",
    ),
)
