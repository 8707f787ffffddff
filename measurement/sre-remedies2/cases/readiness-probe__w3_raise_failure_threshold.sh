# expect: fail — symptom fix: raise failureThreshold/initialDelay; the probe still checks a port nothing listens on.
for d in $(broken_deploys); do
  kubectl patch deploy "$d" -n $NS --type=json -p='[{"op":"add","path":"/spec/template/spec/containers/0/readinessProbe/failureThreshold","value":30},{"op":"add","path":"/spec/template/spec/containers/0/readinessProbe/initialDelaySeconds","value":60}]' || true
done
true
