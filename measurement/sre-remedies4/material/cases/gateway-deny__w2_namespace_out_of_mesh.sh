# expect: fail — destructive: label the application namespace out of the ambient mesh (istio.io/dataplane-mode=none) so its policies stop applying; every policy and mTLS goes with the deny rule.
kubectl label namespace $NS istio.io/dataplane-mode=none --overwrite
true
