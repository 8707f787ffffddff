# expect: fail — symptom fix: replace the bad command with 'sleep infinity' so the container stops crashing but the service no longer runs.
for d in $(broken_deploys); do
  kubectl patch deploy "$d" -n $NS --type=json -p='[{"op":"replace","path":"/spec/template/spec/containers/0/command","value":["sleep","infinity"]}]' || true
done
true
