# expect: fail — wrong mechanism: roll back the Java service the JVMChaos targets (as if a release introduced the exception); the JVMChaos re-injects it into the rolled-back pods.
chaos_of jvmchaos | while read r n ns; do
  for d in $(chaos_target_deploys "$r" "$n" "$ns"); do kubectl rollout undo deploy/"$d" -n "$NS"; done
done
true
