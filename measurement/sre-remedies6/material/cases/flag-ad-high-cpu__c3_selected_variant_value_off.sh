# expect: pass — in the flagd ConfigMap give adHighCpu's selected variant (its defaultVariant) the value of its own "off" variant (the accepted "set the variant's value to off"), written back with a merge patch of the data key.
flag_variant_off adHighCpu
true
