# expect: fail — wrong object: set checkout's PAYMENT_ADDR (or PAYMENT_SERVICE_ADDR when that is the variable it has) to the payment Service's own address `payment:<port>`; the unreachable address is chosen in code while the flag is on, not read from that variable, so checkout still cannot reach payment.
kubectl get deploy checkout -n "$NS" >/dev/null 2>&1 || exit 0
p=$(kubectl get svc payment -n "$NS" -o jsonpath='{.spec.ports[0].port}' 2>/dev/null); [ -n "$p" ] || p=8080
v=$(kubectl get deploy checkout -n "$NS" -o jsonpath='{range .spec.template.spec.containers[0].env[*]}{.name}{"\n"}{end}' | grep -E '^PAYMENT(_SERVICE)?_ADDR$' | head -1)
kubectl set env deploy/checkout -n "$NS" "${v:-PAYMENT_ADDR}=payment:$p"
true
