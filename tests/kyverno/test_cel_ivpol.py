"""ImageValidatingPolicy (cel/ivpol.py) as the Kyverno CLI evaluates one, offline: through
`kyverno test` on our fixtures (image matching by glob and expression, validations over the
image references, a CEL PolicyException, autogen, digests, JSON mode, and verification that
needs a registry), and each rule on its own through the engine."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from ciso.engines.kyverno.cel import ivpol
from ciso.engines.kyverno.engine import Context, apply
from ciso.engines.kyverno.testrunner import run_test_file
from ciso.lint.model import Options
from ciso.lint.runner import lint_paths

FIXTURE = Path(__file__).parent / "fixtures" / "ivpol"
UNSUPPORTED = "unsupported: image signature verification offline"


def pod(*images: str, init: tuple[str, ...] = (), name: str = "web") -> dict:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": "shop"},
        "spec": {
            "initContainers": [{"name": f"i{n}", "image": i} for n, i in enumerate(init)],
            "containers": [{"name": f"c{n}", "image": i} for n, i in enumerate(images)],
        },
    }


def policy(*validations: str, **spec) -> dict:
    return {
        "apiVersion": "policies.kyverno.io/v1beta1",
        "kind": "ImageValidatingPolicy",
        "metadata": {"name": "images"},
        "spec": {
            "validationConfigurations": {"verifyDigest": False, "required": False},
            "matchConstraints": {
                "resourceRules": [
                    {
                        "apiGroups": [""],
                        "apiVersions": ["v1"],
                        "operations": ["CREATE"],
                        "resources": ["pods"],
                    }
                ]
            },
            "attestors": [],
            "validations": [{"expression": v} for v in validations],
            **spec,
        },
    }


def statuses(doc: dict, resource: dict, ctx: Context | None = None) -> list[tuple[str, str]]:
    return [(r.status, r.message) for r in apply([doc], [resource], ctx or Context())]


def outcomes(file: str) -> dict[tuple[str, str], tuple[str, str | None, str]]:
    result = run_test_file(FIXTURE / file)
    assert result.error is None, result.error
    return {(e.policy, e.resource): (e.outcome, e.actual, e.reason) for e in result.expectations}


def test_kyverno_test_fixture_agrees_per_expectation():
    seen = {key: value[:2] for key, value in outcomes("kyverno-test.yaml").items()}
    assert seen == {
        # internal images tagged; the envoy image is not selected by the glob
        ("no-latest-from-internal-registry", "api"): ("passed", "pass"),
        ("no-latest-from-internal-registry", "worker"): ("passed", "fail"),
        # matchConditions false: no response
        ("no-latest-from-internal-registry", "hobby"): ("passed", None),
        # the CEL PolicyException exempts it
        ("no-latest-from-internal-registry", "jobs/legacy-batch"): ("passed", "skip"),
        # autogen: the Deployment's pod template images
        ("no-latest-from-internal-registry", "frontend"): ("passed", "fail"),
        # verifyDigest on the images the matchImageReferences expression selects
        ("pinned-digests", "secrets-agent"): ("passed", "pass"),
        ("pinned-digests", "api"): ("passed", "pass"),
        ("pinned-digests", "secrets-sidecar"): ("passed", "fail"),
    }


def test_json_mode_reads_the_payload_images():
    seen = {key: value[:2] for key, value in outcomes("json/kyverno-test.yaml").items()}
    assert seen == {
        ("base-image-from-mirror", "mirrored.json"): ("passed", "pass"),
        ("base-image-from-mirror", "upstream.json"): ("passed", "fail"),
    }


def test_offline_verification_is_an_error_never_a_pass():
    seen = outcomes("offline-verification/kyverno-test.yaml")
    # the CLI would verify the signature against the registry; we cannot and say so
    assert seen[("signed-by-release-key", "release")] == (
        "errors",
        "error",
        f"{UNSUPPORTED} (spec.validations[1].expression)",
    )
    # a validation before the verification fails first: no registry needed
    assert seen[("signed-by-release-key", "nightly")][:2] == ("passed", "fail")
    # validations pass, but `required` wants a verified image and none can be
    assert seen[("tags-only-required", "release")][:2] == ("passed", "fail")


def test_the_response_is_named_after_the_policy_with_type_image_verify():
    doc = policy("images.containers.all(i, i.startsWith('registry.example.com/'))")
    [result] = apply([doc], [pod("registry.example.com/a:1")], Context())
    assert (result.rule, result.rule_type, result.status) == ("images", "ImageVerify", "pass")
    [result] = apply([doc], [pod("docker.io/a:1")], Context())
    assert (result.status, result.message) == (
        "fail",
        "CEL expression validation failed at index 0",
    )


def test_default_images_by_category_and_glob_selection():
    doc = policy(
        "images.containers == ['ghcr.io/acme/app:2'] && images.initContainers == [] "
        "&& images.ephemeralContainers == []",
        matchImageReferences=[{"glob": "ghcr.io/acme/*"}],
    )
    subject = pod("ghcr.io/acme/app:2", "ghcr.io/other/x:1", init=("busybox:1",))
    assert statuses(doc, subject) == [("pass", "success")]


@pytest.mark.parametrize(
    ("glob", "image", "selected"),
    [
        ("ghcr.io/*", "ghcr.io/a/b/c:1", True),  # no separators: * crosses '/'
        ("ghcr.io/a?c:1", "ghcr.io/abc:1", True),
        ("ghcr.io/[ab]pp:*", "ghcr.io/bpp:3", True),
        ("ghcr.io/[!ab]pp:*", "ghcr.io/bpp:3", False),
        ("{ghcr.io,quay.io}/x:*", "quay.io/x:1", True),
        ("ghcr.io/x", "ghcr.io/x:1", False),  # the whole reference must match
        ("ghcr.io/\\*", "ghcr.io/*", True),
    ],
)
def test_glob_as_gobwas_matches_it(glob, image, selected):
    assert ivpol.image_selected(image, [{"glob": glob}]) is selected


def test_expression_references_and_errors():
    assert ivpol.image_selected("a.io/x:1", [{"expression": "ref.startsWith('a.io/')"}])
    assert not ivpol.image_selected("b.io/x:1", [{"expression": "ref.startsWith('a.io/')"}])
    bad = policy("true", matchImageReferences=[{"expression": "'yes'"}])
    [(status, message)] = statuses(bad, pod("a.io/x:1"))
    assert status == "error" and message.startswith("spec.matchImageReferences[0].expression:")


def test_spec_images_extract_and_override_defaults():
    doc = policy(
        "images.sidecars == ['mesh.io/proxy:1'] && images.containers == ['x.io/only:1']",
        images=[
            {"name": "sidecars", "expression": "['mesh.io/proxy:1']"},
            {"name": "containers", "expression": "['x.io/only:1']"},
        ],
    )
    assert statuses(doc, pod("a.io/app:1")) == [("pass", "success")]
    wrong = policy("true", images=[{"name": "n", "expression": "object.metadata.name"}])
    [(status, message)] = statuses(wrong, pod("a.io/app:1"))
    assert status == "error" and "expected a list of strings" in message


def test_verify_digest_is_on_by_default():
    doc = policy("true")
    doc["spec"]["validationConfigurations"] = {"required": False}
    digest = "a.io/app@sha256:" + "0" * 64
    assert statuses(doc, pod(digest)) == [("pass", "success")]
    assert statuses(doc, pod("a.io/app:1")) == [("fail", "image a.io/app:1 does not have a digest")]


def test_required_is_on_by_default_and_needs_a_selected_image():
    doc = policy("true")
    doc["spec"]["validationConfigurations"] = {"verifyDigest": False}
    [(status, message)] = statuses(doc, pod("a.io/app:1"))
    assert status == "fail"
    assert message == (
        "image a.io/app:1 is not verified: no policy performed a signature or attestation "
        "check on it"
    )
    # nothing selected: nothing to verify
    doc["spec"]["matchImageReferences"] = [{"glob": "b.io/*"}]
    assert statuses(doc, pod("a.io/app:1")) == [("pass", "success")]


@pytest.mark.parametrize(
    "call",
    [
        "verifyImageSignatures(i, [attestors.k])",
        "verifyAttestationSignatures(i, attestations.sbom, [attestors.k])",
        "extractPayload(i, attestations.sbom).bomFormat",
    ],
)
def test_each_verification_function_is_unsupported_offline(call):
    doc = policy(
        f"images.containers.all(i, {call} != null)",
        attestors=[{"name": "k", "cosign": {"key": {"data": "k"}}}],
        attestations=[{"name": "sbom", "referrer": {"type": "sbom/cyclone-dx"}}],
    )
    assert statuses(doc, pod("a.io/app:1")) == [
        ("error", f"{UNSUPPORTED} (spec.validations[0].expression)")
    ]


def test_get_image_data_is_unsupported_offline():
    [(status, message)] = statuses(policy("getImageData('a.io/x:1') != null"), pod("a.io/x:1"))
    assert (status, message) == (
        "error",
        "unsupported: image registry data offline (spec.validations[0].expression)",
    )


def test_match_conditions_and_failure_policy():
    doc = policy("true", matchConditions=[{"name": "m", "expression": "object.nope.x"}])
    [(status, _)] = statuses(doc, pod("a.io/x:1"))
    assert status == "error"
    doc["spec"]["failurePolicy"] = "Ignore"
    assert statuses(doc, pod("a.io/x:1")) == []


def test_variables_see_images_and_messages_follow_vpol_rules():
    doc = policy(
        "variables.count < 2",
        variables=[{"name": "count", "expression": "size(images.containers)"}],
    )
    doc["spec"]["validations"][0]["messageExpression"] = "'too many: ' + string(variables.count)"
    assert statuses(doc, pod("a.io/x:1", "a.io/y:1")) == [("fail", "too many: 2")]
    assert statuses(doc, pod("a.io/x:1")) == [("pass", "success")]
    [(status, message)] = statuses(policy("'yes'"), pod("a.io/x:1"))
    assert status == "error" and "must evaluate to a bool" in message


def test_cel_exception_needs_its_kind_and_conditions():
    exception = {
        "apiVersion": "policies.kyverno.io/v1beta1",
        "kind": "PolicyException",
        "metadata": {"name": "legacy", "namespace": "shop"},
        "spec": {
            "policyRefs": [{"name": "images", "kind": "ImageValidatingPolicy"}],
            "matchConditions": [{"name": "n", "expression": "object.metadata.name == 'old'"}],
        },
    }
    ctx = Context()
    ctx.exceptions = [exception]
    doc = policy("false")
    assert statuses(doc, pod("a.io/x:1", name="old"), ctx) == [
        ("skip", "rule is skipped due to policy exception: shop/legacy")
    ]
    assert [s for s, _ in statuses(doc, pod("a.io/x:1", name="new"), ctx)] == ["fail"]
    other = copy.deepcopy(exception)
    other["spec"]["policyRefs"][0]["kind"] = "ValidatingPolicy"
    ctx.exceptions = [other]
    assert [s for s, _ in statuses(doc, pod("a.io/x:1", name="old"), ctx)] == ["fail"]


def test_json_policies_skip_resources_and_kubernetes_ones_skip_payloads():
    json_doc = policy("true")
    json_doc["spec"]["evaluation"] = {"mode": "JSON"}
    assert apply([json_doc], [pod("a.io/x:1")], Context()) == []
    assert apply([policy("true")], [{"image": "a.io/x:1"}], Context()) == []
    assert [r.status for r in apply([json_doc], [{"image": "a.io/x:1"}], Context())] == ["pass"]


def test_structure_and_lint(tmp_path):
    broken = policy("true", matchImageReferences=[{"glob": "a.io/{x"}, {}])
    broken["spec"]["images"] = [{"name": "x"}]
    broken["spec"]["evaluation"] = {"mode": "Envoy"}
    assert ivpol.check_structure(broken) == [
        "spec.matchImageReferences[0].glob: unclosed '{' in glob 'a.io/{x'",
        "spec.matchImageReferences[1]: needs a glob or an expression",
        "spec.images[0].expression: required",
        "spec.evaluation.mode: must be Kubernetes or JSON",
    ]
    path = tmp_path / "ivpol.yaml"
    path.write_text(
        """apiVersion: policies.kyverno.io/v1beta1
kind: ImageValidatingPolicy
metadata:
  name: loose
spec:
  matchConstraints:
    resourceRules:
      - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  matchImageReferences:
    - {}
  validations:
    - expression: "true"
"""
    )
    run = lint_paths([path], Options(), enable=["KYV007"], progress=False)
    errors = sorted(f.message for f in run.findings if f.level == "error")
    assert errors == [
        "ImageValidatingPolicy loose: spec.attestors is missing",
        "ImageValidatingPolicy loose: spec.matchImageReferences[0]: needs a glob or an expression",
    ]
