# expect: pass — in the flagd ConfigMap give loadgeneratorFloodHomepage's selected variant the value of its "off" variant (no flood), written back with a merge patch of the data key.
flag_variant_off loadgeneratorFloodHomepage
true
