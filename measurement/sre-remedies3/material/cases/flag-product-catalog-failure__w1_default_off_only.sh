# expect: fail — near miss: set only defaultVariant to off; the targeting rule still returns on for the product.
flag_edit "f['productCatalogFailure']['defaultVariant']='off'"
true
