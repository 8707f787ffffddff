# expect: fail — wrong fix: switch the pod to dnsPolicy None with a public resolver (8.8.8.8); cluster Service names still do not resolve.
for d in $(deploys_where "t.get('dnsPolicy') in ('Default','None') and not t.get('hostNetwork')"); do
  kubectl patch deploy "$d" -n $NS --type=merge -p '{"spec":{"template":{"spec":{"dnsPolicy":"None","dnsConfig":{"nameservers":["8.8.8.8"]}}}}}'
done
true
