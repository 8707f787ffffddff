"""Kubernetes' CEL URL library (cel/libraries/url.py) against what Kubernetes documents for it
(the examples in k8s.io/apiserver pkg/cel/library/urls.go, "K8s doc" below) and Go's net/url
behaviour that its url() and isURL() inherit from url.ParseRequestURI and url.Parse ("Go")."""

from __future__ import annotations

import pytest

from ciso.engines.kyverno.cel.program import CelError, evaluate

VALUES = [
    # K8s doc: getScheme / getHost / getHostname / getPort
    ("url('/path').getScheme()", ""),
    ("url('https://example.com/').getScheme()", "https"),
    ("url('HTTPS://example.com/').getScheme()", "https"),  # Go lowercases the scheme
    ("url('https://example.com:80/').getHost()", "example.com:80"),
    ("url('https://example.com/').getHost()", "example.com"),
    ("url('https://[::1]:80/').getHost()", "[::1]:80"),
    ("url('https://[::1]/').getHost()", "[::1]"),
    ("url('/path').getHost()", ""),
    ("url('https://example.com:80/').getHostname()", "example.com"),
    ("url('https://127.0.0.1:80/').getHostname()", "127.0.0.1"),
    ("url('https://[::1]:80/').getHostname()", "::1"),
    ("url('/path').getHostname()", ""),
    ("url('https://example.com:80/').getPort()", "80"),
    ("url('https://example.com/').getPort()", ""),
    ("url('/path').getPort()", ""),
    # Go: an empty port after ':' is allowed and reads as no port; a zone in brackets is %25
    ("url('https://example.com:/').getPort()", ""),
    ("url('https://[fe80::1%25en0]:8080/').getHostname()", "fe80::1%en0"),
    # Go: the host is unescaped (only non-ASCII may be escaped); non-ASCII hosts are allowed
    ("url('https://b%C3%BCcher.example/').getHost()", "bücher.example"),
    ("url('https://bücher.example/').getHostname()", "bücher.example"),
    # Go: the last ':' separates the port, so 'a:1:2' is host 'a:1', port '2'
    ("url('https://a:1:2/').getHostname()", "a:1"),
    # K8s doc: getEscapedPath
    ("url('https://example.com/path').getEscapedPath()", "/path"),
    ("url('https://example.com/path with spaces/').getEscapedPath()", "/path%20with%20spaces/"),
    ("url('https://example.com').getEscapedPath()", ""),
    # Go's EscapedPath: the path as written when valid ('%2F' kept), else Go's escaping ('!')
    ("url('https://example.com/a%2Fb').getEscapedPath()", "/a%2Fb"),
    ("url('https://example.com/a!b c').getEscapedPath()", "/a%21b%20c"),
    # url() keeps what url.Parse makes of the string: the fragment is split off
    ("url('https://example.com/a#b?c=d').getEscapedPath()", "/a"),
    # K8s doc: getQuery
    ("url('https://example.com/path?k1=a&k2=b&k2=c').getQuery()", {"k1": ["a"], "k2": ["b", "c"]}),
    (
        "url('https://example.com/path?key with spaces=value with spaces').getQuery()",
        {"key with spaces": ["value with spaces"]},
    ),
    ("url('https://example.com/path?').getQuery()", {}),
    ("url('https://example.com/path').getQuery()", {}),
    # Go's Query(): '+' is a space, escapes decoded, pairs with ';' or a bad escape dropped
    ("url('https://x/?a=1;b=2&c=%zz&d=%41+b').getQuery()", {"d": ["A b"]}),
    ("url('https://x/p?q=v#frag').getQuery()", {"q": ["v"]}),
    ("url('https://x/') == url('https://x/')", True),
]


@pytest.mark.parametrize(("expression", "expected"), VALUES)
def test_url_values(expression, expected):
    assert evaluate(expression, {}) == expected


IS_URL = [
    # K8s doc
    ("https://user:pass@example.com:80/path?query=val#fragment", True),
    ("/absolute-path", True),
    ("https://a:b:c/", False),
    ("../relative-path", False),
    # Go's ParseRequestURI
    ("mailto:someone@example.com", True),  # a rootless path after a scheme: opaque URI
    ("*", True),  # the request URI of OPTIONS *
    ("//example.com/path", True),  # without a scheme, an absolute path
    ("example.com", False),  # neither scheme nor leading '/'
    ("", False),
    (":foo", False),  # missing protocol scheme
    ("https://exa mple.com/", False),  # a space in the host
    ("https://ex%41mple.com/", False),  # ASCII may not be escaped in a host
    ("https://example.com/%zz", False),  # a bad escape in the path
    ("https://example.com/a\tb", False),  # a control character
    ("https://user name@example.com/", False),  # invalid userinfo
    ("https://[::1/", False),  # missing ']'
    ("https://[1.2.3.4]/", False),  # only IPv6 in brackets (Go >= 1.25.2)
    ("/a?#%zz", True),  # ParseRequestURI does not split the fragment (url() fails, below)
]


@pytest.mark.parametrize(("text", "expected"), IS_URL)
def test_is_url(text, expected):
    assert evaluate("isURL(s)", {"s": text}) is expected


ERRORS = [
    # K8s doc: these are errors; the message is Go's behind Kubernetes' prefix
    ("https://a:b:c/", 'parse "https://a:b:c/": invalid port ":c" after host'),
    ("../relative-path", 'parse "../relative-path": invalid URI for request'),
    ("", 'parse "": empty url'),
    (":foo", 'parse ":foo": missing protocol scheme'),
    ("https://exa mple.com/", 'parse "https://exa mple.com/": invalid character " " in host name'),
    ("https://ex%41mple.com/", 'parse "https://ex%41mple.com/": invalid URL escape "%41"'),
    ("https://example.com/%zz", 'parse "https://example.com/%zz": invalid URL escape "%zz"'),
    ("https://[::1/", "parse \"https://[::1/\": missing ']' in host"),
    ("https://[1.2.3.4]/", 'parse "https://[1.2.3.4]/": invalid IP-literal'),
    ("https://user name@x/", 'parse "https://user name@x/": net/url: invalid userinfo'),
    ("https://x/a\tb", 'parse "https://x/a\\tb": net/url: invalid control character in URL'),
    # accepted by ParseRequestURI, refused by url.Parse, which url() also runs
    ("/a?#%zz", 'parse "/a?#%zz": invalid URL escape "%zz"'),
]


@pytest.mark.parametrize(("text", "message"), ERRORS)
def test_url_errors_in_kubernetes_words(text, message):
    with pytest.raises(CelError) as caught:
        evaluate("url(s)", {"s": text})
    assert f"URL parse error during conversion from string: {message}" in str(caught.value)


def test_methods_refuse_other_types():
    with pytest.raises(CelError, match="expected a URL"):
        evaluate("ip('1.2.3.4').getHost()", {})
