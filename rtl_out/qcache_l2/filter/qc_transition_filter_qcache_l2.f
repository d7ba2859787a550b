../lib/qc_filter_rule_o0_l0.v
../lib/qc_transition_filter_qcache_l2.v
