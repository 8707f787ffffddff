# expect: fail — blame cluster DNS and restart CoreDNS (wrong object).
kubectl delete pod -n kube-system -l k8s-app=kube-dns; kubectl rollout restart deploy/coredns -n kube-system || true
