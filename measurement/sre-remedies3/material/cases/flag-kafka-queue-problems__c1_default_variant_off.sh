# expect: pass — set kafkaQueueProblems's defaultVariant back to off.
flag_edit "f['kafkaQueueProblems']['defaultVariant']='off'"
true
