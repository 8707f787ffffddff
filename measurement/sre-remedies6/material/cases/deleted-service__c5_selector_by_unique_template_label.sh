# expect: pass — find the Deployment that declares a container port and has no Service of its name; recreate the Service (kubectl apply of a manifest, port = targetPort = the container port) selecting the pods by ANOTHER template label that selects exactly that Deployment's pods (its matchLabels when there is none).
for d in $(deploys_without_service); do
  p=$(container_port "$d")
  kv=$(unique_other_label "$d")
  if [ -n "$kv" ]; then sel="    ${kv%%=*}: \"${kv#*=}\""; else sel=$(match_labels_yaml "$d" 4); fi
  kubectl apply -n "$NS" -f - <<EOF2
apiVersion: v1
kind: Service
metadata:
  name: $d
  namespace: $NS
spec:
  selector:
$sel
  ports:
  - name: tcp-$p
    protocol: TCP
    port: $p
    targetPort: $p
EOF2
done
true
