# expect: fail — near miss: recreate the Service from a hand-written manifest with the right name, selector and port, but targetPort 80 (8080 if the container port is 80); the Service resolves and lists the pods, but nothing listens on the port it forwards to.
for d in $(deploys_without_service); do
  p=$(container_port "$d"); wrong=80; [ "$p" = "80" ] && wrong=8080
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
  - name: http
    protocol: TCP
    port: $p
    targetPort: $wrong
EOF
done
true
