# expect: fail — raise only the quota's pod count; the memory/CPU hard limits still refuse the pod. (fails only if the quota bounds resources too)
for q in $(kubectl get resourcequota -n $NS -o jsonpath='{.items[*].metadata.name}'); do
  kubectl patch resourcequota "$q" -n $NS --type=merge -p '{"spec":{"hard":{"pods":"200"}}}'
done
true
