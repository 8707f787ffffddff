# expect: pass — same diagnosis; recreate the Service from a hand-written manifest (kubectl apply -f -): name = the Deployment's, selector = its matchLabels, port = the container port, targetPort = the container port's NAME (the number when the port has no name).
for d in $(deploys_without_service); do
  p=$(container_port "$d"); pn=$(container_port_name "$d"); tp=${pn:-$p}
  kubectl apply -n "$NS" -f - <<EOF
apiVersion: v1
kind: Service
metadata:
  name: $d
  namespace: $NS
spec:
  type: ClusterIP
  selector:
$(match_labels_yaml "$d" 4)
  ports:
  - name: tcp-service
    protocol: TCP
    port: $p
    targetPort: $tp
EOF
done
true
