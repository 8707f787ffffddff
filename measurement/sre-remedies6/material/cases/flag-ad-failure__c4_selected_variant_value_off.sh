# expect: pass — in the flagd ConfigMap give adFailure's selected variant the value of its "off" variant (set the variant's value to off), written back with a merge patch of the data key.
flag_variant_off adFailure
true
