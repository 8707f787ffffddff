# expect: fail — wrong object: remove JAVA_TOOL_OPTIONS (the OpenTelemetry Java agent) from the failing Java service, blaming the agent for the exception; the exception is injected by the JVMChaos (Byteman), which stays, and the service loses its telemetry.
chaos_of jvmchaos | while read r n ns; do
  case "$r" in schedules.*) continue ;; esac
  for d in $(chaos_target_deploys "$r" "$n" "$ns"); do
    kubectl get deploy "$d" -n "$NS" -o jsonpath='{.spec.template.spec.containers[0].env[*].name}' | grep -qw JAVA_TOOL_OPTIONS &&
      kubectl set env deploy/"$d" -n "$NS" JAVA_TOOL_OPTIONS-
  done
done
true
