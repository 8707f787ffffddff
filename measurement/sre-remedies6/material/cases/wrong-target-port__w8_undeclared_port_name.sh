# expect: fail — near miss: "use a named port": set the Service's targetPort to a conventional name (http, else grpc, else web) that the Deployment's containers do NOT declare; a name no container port carries resolves to nothing, so no endpoint port answers.
for s in $(svcs_with_closed_target_port); do
  dp=" $(declared_ports "$s") "
  for nm in http grpc web; do case "$dp" in *" $nm "*) ;; *) break ;; esac; done
  kubectl patch svc "$s" -n "$NS" --type=json -p "[{\"op\":\"replace\",\"path\":\"/spec/ports/0/targetPort\",\"value\":\"$nm\"}]"
done
true
