# expect: fail — wrong object: set every *Failure flag's defaultVariant to off except the cart's (the operator misreads which service fails); cartFailure stays on.
kubectl get configmap flagd-config -n $NS -o jsonpath='{.data.demo\.flagd\.json}' > /tmp/flags.json
awk '/"[A-Za-z]+Failure"[ ]*:/ && !/"cartFailure"/ {inb=1} inb && /"defaultVariant"/ {sub(/"defaultVariant"[ ]*:[ ]*"[^"]*"/, "\"defaultVariant\": \"off\""); inb=0} {print}' /tmp/flags.json > /tmp/flags.new
[ -s /tmp/flags.new ] && kubectl create configmap flagd-config -n $NS --from-file=demo.flagd.json=/tmp/flags.new --dry-run=client -o yaml | kubectl replace -f -
true
