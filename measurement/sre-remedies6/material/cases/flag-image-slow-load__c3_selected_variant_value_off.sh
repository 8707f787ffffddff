# expect: pass — in the flagd ConfigMap give imageSlowLoad's selected variant the value of its "off" variant (no delay), written back with a merge patch of the data key.
flag_variant_off imageSlowLoad
true
