# expect: fail — wrong namespace: label the `default` namespace istio.io/dataplane-mode=ambient (the operator enrols "the" namespace without looking which one was taken out); the application's namespace stays labelled none.
kubectl label ns default istio.io/dataplane-mode=ambient --overwrite
true
