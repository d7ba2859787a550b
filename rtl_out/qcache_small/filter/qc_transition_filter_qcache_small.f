../lib/qc_filter_rule_o1_l1.v
../lib/qc_transition_filter_qcache_small.v
