# expect: fail — wrong object: restart CoreDNS; the faulty pod never asks it (its resolver is the node's).
kubectl rollout restart deploy/coredns -n kube-system 2>/dev/null || kubectl delete pods -n kube-system -l k8s-app=kube-dns
true
