# expect: fail — workaround in the wrong place: append -XX:+DisableExplicitGC to the ad service's JAVA_TOOL_OPTIONS so System.gc() calls become no-ops, leaving the flag on; the ad pods restart and the flag still asks for the collections. (debatable: on a real JVM this does stop the flag's explicit collections)
kubectl get deploy ad -n "$NS" >/dev/null 2>&1 || exit 0
cur=$(kubectl get deploy ad -n "$NS" -o jsonpath='{range .spec.template.spec.containers[0].env[?(@.name=="JAVA_TOOL_OPTIONS")]}{.value}{end}')
kubectl set env deploy/ad -n "$NS" "JAVA_TOOL_OPTIONS=${cur:+$cur }-XX:+DisableExplicitGC"
true
