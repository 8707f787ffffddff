package check

import rego.v1

default result := true
