# expect: pass — productCatalogFailure may be switched on by its targeting rule, which returns the variant "on": give the "on" variant the value of the "off" variant, so every branch (default and targeting) serves off; merge patch of the data key.
flag_variant_off productCatalogFailure on
true
